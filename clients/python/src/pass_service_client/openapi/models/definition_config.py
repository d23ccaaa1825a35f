from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.definition_config_fields import DefinitionConfigFields


T = TypeVar("T", bound="DefinitionConfig")


@_attrs_define
class DefinitionConfig:
    """
    Attributes:
        fields (DefinitionConfigFields):
    """

    fields: DefinitionConfigFields

    def to_dict(self) -> dict[str, Any]:
        fields = self.fields.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fields": fields,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.definition_config_fields import DefinitionConfigFields

        d = dict(src_dict)
        fields = DefinitionConfigFields.from_dict(d.pop("fields"))

        definition_config = cls(
            fields=fields,
        )

        return definition_config
