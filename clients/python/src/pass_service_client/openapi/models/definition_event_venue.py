from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.definition_event_venue_location import DefinitionEventVenueLocation


T = TypeVar("T", bound="DefinitionEventVenue")


@_attrs_define
class DefinitionEventVenue:
    """
    Attributes:
        name (str):
        address (str | Unset):
        location (DefinitionEventVenueLocation | Unset): Apple: semantics.venueLocation (maps, weather)
    """

    name: str
    address: str | Unset = UNSET
    location: DefinitionEventVenueLocation | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        address = self.address

        location: dict[str, Any] | Unset = UNSET
        if not isinstance(self.location, Unset):
            location = self.location.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if address is not UNSET:
            field_dict["address"] = address
        if location is not UNSET:
            field_dict["location"] = location

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.definition_event_venue_location import (
            DefinitionEventVenueLocation,
        )

        d = dict(src_dict)
        name = d.pop("name")

        address = d.pop("address", UNSET)

        _location = d.pop("location", UNSET)
        location: DefinitionEventVenueLocation | Unset
        if isinstance(_location, Unset):
            location = UNSET
        else:
            location = DefinitionEventVenueLocation.from_dict(_location)

        definition_event_venue = cls(
            name=name,
            address=address,
            location=location,
        )

        return definition_event_venue
