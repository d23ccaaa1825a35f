from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DefinitionEnrollmentFieldsItem")


@_attrs_define
class DefinitionEnrollmentFieldsItem:
    """
    Attributes:
        key (str): holderName, holderEmail or the key of one of the template's perPass fields; each once
        required (bool | Unset): default false
    """

    key: str
    required: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        required = self.required

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
            }
        )
        if required is not UNSET:
            field_dict["required"] = required

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        key = d.pop("key")

        required = d.pop("required", UNSET)

        definition_enrollment_fields_item = cls(
            key=key,
            required=required,
        )

        return definition_enrollment_fields_item
