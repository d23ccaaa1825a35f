from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.template_create_type import TemplateCreateType, check_template_create_type

if TYPE_CHECKING:
    from ..models.definition import Definition


T = TypeVar("T", bound="TemplateCreate")


@_attrs_define
class TemplateCreate:
    """
    Attributes:
        definition (Definition): Template definition schema v1.
        name (str):
        type_ (TemplateCreateType):
    """

    definition: Definition
    name: str
    type_: TemplateCreateType

    def to_dict(self) -> dict[str, Any]:
        definition = self.definition.to_dict()

        name = self.name

        type_: str = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "definition": definition,
                "name": name,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.definition import Definition

        d = dict(src_dict)
        definition = Definition.from_dict(d.pop("definition"))

        name = d.pop("name")

        type_ = check_template_create_type(d.pop("type"))

        template_create = cls(
            definition=definition,
            name=name,
            type_=type_,
        )

        return template_create
