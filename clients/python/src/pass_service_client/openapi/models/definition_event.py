from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.definition_event_category import (
    DefinitionEventCategory,
    check_definition_event_category,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.definition_event_seat_fields import DefinitionEventSeatFields
    from ..models.definition_event_venue import DefinitionEventVenue


T = TypeVar("T", bound="DefinitionEvent")


@_attrs_define
class DefinitionEvent:
    """required on event_ticket templates, refused on others

    Attributes:
        name (str):
        starts_at (str):
        venue (DefinitionEventVenue):
        category (DefinitionEventCategory | Unset): Apple: semantics.eventType (default generic)
        doors_open_at (str | Unset):
        ends_at (str | Unset):
        seat_fields (DefinitionEventSeatFields | Unset): which fields give the seat: Apple semantics.seats and
            venueEntranceGate, Google seatInfo; default: the fields keyed section, row, seat and gate
    """

    name: str
    starts_at: str
    venue: DefinitionEventVenue
    category: DefinitionEventCategory | Unset = UNSET
    doors_open_at: str | Unset = UNSET
    ends_at: str | Unset = UNSET
    seat_fields: DefinitionEventSeatFields | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        starts_at = self.starts_at

        venue = self.venue.to_dict()

        category: str | Unset = UNSET
        if not isinstance(self.category, Unset):
            category = self.category

        doors_open_at = self.doors_open_at

        ends_at = self.ends_at

        seat_fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.seat_fields, Unset):
            seat_fields = self.seat_fields.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "startsAt": starts_at,
                "venue": venue,
            }
        )
        if category is not UNSET:
            field_dict["category"] = category
        if doors_open_at is not UNSET:
            field_dict["doorsOpenAt"] = doors_open_at
        if ends_at is not UNSET:
            field_dict["endsAt"] = ends_at
        if seat_fields is not UNSET:
            field_dict["seatFields"] = seat_fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.definition_event_seat_fields import DefinitionEventSeatFields
        from ..models.definition_event_venue import DefinitionEventVenue

        d = dict(src_dict)
        name = d.pop("name")

        starts_at = d.pop("startsAt")

        venue = DefinitionEventVenue.from_dict(d.pop("venue"))

        _category = d.pop("category", UNSET)
        category: DefinitionEventCategory | Unset
        if isinstance(_category, Unset):
            category = UNSET
        else:
            category = check_definition_event_category(_category)

        doors_open_at = d.pop("doorsOpenAt", UNSET)

        ends_at = d.pop("endsAt", UNSET)

        _seat_fields = d.pop("seatFields", UNSET)
        seat_fields: DefinitionEventSeatFields | Unset
        if isinstance(_seat_fields, Unset):
            seat_fields = UNSET
        else:
            seat_fields = DefinitionEventSeatFields.from_dict(_seat_fields)

        definition_event = cls(
            name=name,
            starts_at=starts_at,
            venue=venue,
            category=category,
            doors_open_at=doors_open_at,
            ends_at=ends_at,
            seat_fields=seat_fields,
        )

        return definition_event
