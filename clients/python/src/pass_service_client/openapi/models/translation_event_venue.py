from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TranslationEventVenue")


@_attrs_define
class TranslationEventVenue:
    """
    Attributes:
        address (str | Unset):
        name (str | Unset):
    """

    address: str | Unset = UNSET
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        address = self.address

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if address is not UNSET:
            field_dict["address"] = address
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        address = d.pop("address", UNSET)

        name = d.pop("name", UNSET)

        translation_event_venue = cls(
            address=address,
            name=name,
        )

        return translation_event_venue
