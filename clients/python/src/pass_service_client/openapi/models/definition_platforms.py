from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DefinitionPlatforms")


@_attrs_define
class DefinitionPlatforms:
    """at least one true

    Attributes:
        apple (bool):
        google (bool):
    """

    apple: bool
    google: bool

    def to_dict(self) -> dict[str, Any]:
        apple = self.apple

        google = self.google

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "apple": apple,
                "google": google,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        apple = d.pop("apple")

        google = d.pop("google")

        definition_platforms = cls(
            apple=apple,
            google=google,
        )

        return definition_platforms
