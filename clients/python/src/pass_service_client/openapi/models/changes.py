from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.field_change import FieldChange


T = TypeVar("T", bound="Changes")


@_attrs_define
class Changes:
    """
    Attributes:
        fields (list[FieldChange]):
    """

    fields: list[FieldChange]

    def to_dict(self) -> dict[str, Any]:
        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fields": fields,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field_change import FieldChange

        d = dict(src_dict)
        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = FieldChange.from_dict(fields_item_data)

            fields.append(fields_item)

        changes = cls(
            fields=fields,
        )

        return changes
