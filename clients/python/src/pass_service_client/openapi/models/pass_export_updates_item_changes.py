from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.pass_export_updates_item_changes_fields_item import (
        PassExportUpdatesItemChangesFieldsItem,
    )


T = TypeVar("T", bound="PassExportUpdatesItemChanges")


@_attrs_define
class PassExportUpdatesItemChanges:
    """
    Attributes:
        fields (list[PassExportUpdatesItemChangesFieldsItem]):
    """

    fields: list[PassExportUpdatesItemChangesFieldsItem]

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
        from ..models.pass_export_updates_item_changes_fields_item import (
            PassExportUpdatesItemChangesFieldsItem,
        )

        d = dict(src_dict)
        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = PassExportUpdatesItemChangesFieldsItem.from_dict(
                fields_item_data
            )

            fields.append(fields_item)

        pass_export_updates_item_changes = cls(
            fields=fields,
        )

        return pass_export_updates_item_changes
