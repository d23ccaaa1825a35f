from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.insights_rates_by_platform_apple import InsightsRatesByPlatformApple
    from ..models.insights_rates_by_platform_google import InsightsRatesByPlatformGoogle


T = TypeVar("T", bound="InsightsRatesByPlatform")


@_attrs_define
class InsightsRatesByPlatform:
    """
    Attributes:
        apple (InsightsRatesByPlatformApple):
        google (InsightsRatesByPlatformGoogle):
    """

    apple: InsightsRatesByPlatformApple
    google: InsightsRatesByPlatformGoogle

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
        from ..models.insights_rates_by_platform_apple import (
            InsightsRatesByPlatformApple,
        )
        from ..models.insights_rates_by_platform_google import (
            InsightsRatesByPlatformGoogle,
        )

        d = dict(src_dict)
        apple = InsightsRatesByPlatformApple.from_dict(d.pop("apple"))

        google = InsightsRatesByPlatformGoogle.from_dict(d.pop("google"))

        insights_rates_by_platform = cls(
            apple=apple,
            google=google,
        )

        return insights_rates_by_platform
