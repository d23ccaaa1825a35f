from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PassImageBody")


@_attrs_define
class PassImageBody:
    """
    Attributes:
        asset_id (str): an asset of the organization uploaded for the same slot
    """

    asset_id: str

    def to_dict(self) -> dict[str, Any]:
        asset_id = self.asset_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "assetId": asset_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        asset_id = d.pop("assetId")

        pass_image_body = cls(
            asset_id=asset_id,
        )

        return pass_image_body
