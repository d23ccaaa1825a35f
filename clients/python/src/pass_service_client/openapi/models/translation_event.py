from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.translation_event_venue import TranslationEventVenue


T = TypeVar("T", bound="TranslationEvent")


@_attrs_define
class TranslationEvent:
    """
    Attributes:
        name (str | Unset):
        venue (TranslationEventVenue | Unset):
    """

    name: str | Unset = UNSET
    venue: TranslationEventVenue | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        venue: dict[str, Any] | Unset = UNSET
        if not isinstance(self.venue, Unset):
            venue = self.venue.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if venue is not UNSET:
            field_dict["venue"] = venue

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.translation_event_venue import TranslationEventVenue

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _venue = d.pop("venue", UNSET)
        venue: TranslationEventVenue | Unset
        if isinstance(_venue, Unset):
            venue = UNSET
        else:
            venue = TranslationEventVenue.from_dict(_venue)

        translation_event = cls(
            name=name,
            venue=venue,
        )

        return translation_event
