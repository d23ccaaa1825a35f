from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DownloadLinkCreate")


@_attrs_define
class DownloadLinkCreate:
    """
    Attributes:
        expires_in_seconds (int | Unset): 60 s to 7 days; default 1 hour Default: 3600.
    """

    expires_in_seconds: int | Unset = 3600

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

        download_link_create = cls(
            expires_in_seconds=expires_in_seconds,
        )

        return download_link_create
