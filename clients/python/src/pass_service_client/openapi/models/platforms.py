from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Platforms")


@_attrs_define
class Platforms:
    """
    Attributes:
        apple (bool | Unset):
        google (bool | Unset):
    """

    apple: bool | Unset = UNSET
    google: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        apple = self.apple

        google = self.google

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if apple is not UNSET:
            field_dict["apple"] = apple
        if google is not UNSET:
            field_dict["google"] = google

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        apple = d.pop("apple", UNSET)

        google = d.pop("google", UNSET)

        platforms = cls(
            apple=apple,
            google=google,
        )

        return platforms
