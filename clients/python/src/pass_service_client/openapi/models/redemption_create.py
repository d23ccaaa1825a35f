from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RedemptionCreate")


@_attrs_define
class RedemptionCreate:
    """
    Attributes:
        location (None | str | Unset): where it happened, e.g. a gate; at most 100 characters
    """

    location: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if location is not UNSET:
            field_dict["location"] = location

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        redemption_create = cls(
            location=location,
        )

        return redemption_create
