from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.insights_series_item_by_platform_apple import (
        InsightsSeriesItemByPlatformApple,
    )
    from ..models.insights_series_item_by_platform_google import (
        InsightsSeriesItemByPlatformGoogle,
    )


T = TypeVar("T", bound="InsightsSeriesItemByPlatform")


@_attrs_define
class InsightsSeriesItemByPlatform:
    """groupBy=day and template: the same counts per wallet

    Attributes:
        apple (InsightsSeriesItemByPlatformApple):
        google (InsightsSeriesItemByPlatformGoogle):
    """

    apple: InsightsSeriesItemByPlatformApple
    google: InsightsSeriesItemByPlatformGoogle

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
        from ..models.insights_series_item_by_platform_apple import (
            InsightsSeriesItemByPlatformApple,
        )
        from ..models.insights_series_item_by_platform_google import (
            InsightsSeriesItemByPlatformGoogle,
        )

        d = dict(src_dict)
        apple = InsightsSeriesItemByPlatformApple.from_dict(d.pop("apple"))

        google = InsightsSeriesItemByPlatformGoogle.from_dict(d.pop("google"))

        insights_series_item_by_platform = cls(
            apple=apple,
            google=google,
        )

        return insights_series_item_by_platform
