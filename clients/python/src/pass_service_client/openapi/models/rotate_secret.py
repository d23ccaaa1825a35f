from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RotateSecret")


@_attrs_define
class RotateSecret:
    """
    Attributes:
        expires_in_seconds (int | Unset): how long the previous secret keeps signing too; default 24 h Default: 86400.
    """

    expires_in_seconds: int | Unset = 86400

    def to_dict(self) -> dict[str, Any]:
        expires_in_seconds = self.expires_in_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expires_in_seconds is not UNSET:
            field_dict["expiresInSeconds"] = expires_in_seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        expires_in_seconds = d.pop("expiresInSeconds", UNSET)

        rotate_secret = cls(
            expires_in_seconds=expires_in_seconds,
        )

        return rotate_secret
