from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.asset_create_slot import AssetCreateSlot, check_asset_create_slot
from ..types import UNSET, Unset

T = TypeVar("T", bound="AssetCreate")


@_attrs_define
class AssetCreate:
    """
    Attributes:
        data (str): base64 image file, <= 5 MiB
        slot (AssetCreateSlot):
        content_type (str | Unset):
    """

    data: str
    slot: AssetCreateSlot
    content_type: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        data = self.data

        slot: str = self.slot

        content_type = self.content_type

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "slot": slot,
            }
        )
        if content_type is not UNSET:
            field_dict["contentType"] = content_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        data = d.pop("data")

        slot = check_asset_create_slot(d.pop("slot"))

        content_type = d.pop("contentType", UNSET)

        asset_create = cls(
            data=data,
            slot=slot,
            content_type=content_type,
        )

        return asset_create
