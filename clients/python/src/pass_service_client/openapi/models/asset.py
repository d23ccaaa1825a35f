from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.asset_content_type import AssetContentType, check_asset_content_type
from ..models.asset_object import AssetObject, check_asset_object
from ..models.asset_slot import AssetSlot, check_asset_slot

T = TypeVar("T", bound="Asset")


@_attrs_define
class Asset:
    """
    Attributes:
        byte_size (int):
        content_type (AssetContentType):
        created_at (datetime.datetime):
        height (int):
        id (str):
        object_ (AssetObject):  Default: 'asset'.
        slot (AssetSlot):
        url (str):
        width (int):
    """

    byte_size: int
    content_type: AssetContentType
    created_at: datetime.datetime
    height: int
    id: str
    slot: AssetSlot
    url: str
    width: int
    object_: AssetObject = "asset"

    def to_dict(self) -> dict[str, Any]:
        byte_size = self.byte_size

        content_type: str = self.content_type

        created_at = self.created_at.isoformat()

        height = self.height

        id = self.id

        object_: str = self.object_

        slot: str = self.slot

        url = self.url

        width = self.width

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "byteSize": byte_size,
                "contentType": content_type,
                "createdAt": created_at,
                "height": height,
                "id": id,
                "object": object_,
                "slot": slot,
                "url": url,
                "width": width,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        byte_size = d.pop("byteSize")

        content_type = check_asset_content_type(d.pop("contentType"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        height = d.pop("height")

        id = d.pop("id")

        object_ = check_asset_object(d.pop("object"))

        slot = check_asset_slot(d.pop("slot"))

        url = d.pop("url")

        width = d.pop("width")

        asset = cls(
            byte_size=byte_size,
            content_type=content_type,
            created_at=created_at,
            height=height,
            id=id,
            object_=object_,
            slot=slot,
            url=url,
            width=width,
        )

        return asset
