from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.insight_wallet_counts import InsightWalletCounts


T = TypeVar("T", bound="ByPlatform")


@_attrs_define
class ByPlatform:
    """
    Attributes:
        apple (InsightWalletCounts):
        google (InsightWalletCounts):
    """

    apple: InsightWalletCounts
    google: InsightWalletCounts

    def to_dict(self) -> dict[str, Any]:
        apple = self.apple.to_dict()

        google = self.google.to_dict()

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
        from ..models.insight_wallet_counts import InsightWalletCounts

        d = dict(src_dict)
        apple = InsightWalletCounts.from_dict(d.pop("apple"))

        google = InsightWalletCounts.from_dict(d.pop("google"))

        by_platform = cls(
            apple=apple,
            google=google,
        )

        return by_platform
