from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DefinitionLocationsItem")


@_attrs_define
class DefinitionLocationsItem:
    """
    Attributes:
        latitude (float):
        longitude (float):
        relevant_text (str | Unset): Apple only (lock screen)
    """

    latitude: float
    longitude: float
    relevant_text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        latitude = self.latitude

        longitude = self.longitude

        relevant_text = self.relevant_text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "latitude": latitude,
                "longitude": longitude,
            }
        )
        if relevant_text is not UNSET:
            field_dict["relevantText"] = relevant_text

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        latitude = d.pop("latitude")

        longitude = d.pop("longitude")

        relevant_text = d.pop("relevantText", UNSET)

        definition_locations_item = cls(
            latitude=latitude,
            longitude=longitude,
            relevant_text=relevant_text,
        )

        return definition_locations_item
