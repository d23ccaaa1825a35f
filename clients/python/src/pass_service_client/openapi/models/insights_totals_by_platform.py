from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.insights_totals_by_platform_apple import InsightsTotalsByPlatformApple
    from ..models.insights_totals_by_platform_google import (
        InsightsTotalsByPlatformGoogle,
    )


T = TypeVar("T", bound="InsightsTotalsByPlatform")


@_attrs_define
class InsightsTotalsByPlatform:
    """the same counts per wallet; the top level's wallet counts are their sums

    Attributes:
        apple (InsightsTotalsByPlatformApple):
        google (InsightsTotalsByPlatformGoogle):
    """

    apple: InsightsTotalsByPlatformApple
    google: InsightsTotalsByPlatformGoogle

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
        from ..models.insights_totals_by_platform_apple import (
            InsightsTotalsByPlatformApple,
        )
        from ..models.insights_totals_by_platform_google import (
            InsightsTotalsByPlatformGoogle,
        )

        d = dict(src_dict)
        apple = InsightsTotalsByPlatformApple.from_dict(d.pop("apple"))

        google = InsightsTotalsByPlatformGoogle.from_dict(d.pop("google"))

        insights_totals_by_platform = cls(
            apple=apple,
            google=google,
        )

        return insights_totals_by_platform
