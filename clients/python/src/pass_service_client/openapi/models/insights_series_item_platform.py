from typing import Literal

InsightsSeriesItemPlatform = Literal["apple", "google"]

INSIGHTS_SERIES_ITEM_PLATFORM_VALUES: set[InsightsSeriesItemPlatform] = {
    "apple",
    "google",
}


def check_insights_series_item_platform(value: str) -> InsightsSeriesItemPlatform:
    if value in INSIGHTS_SERIES_ITEM_PLATFORM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {INSIGHTS_SERIES_ITEM_PLATFORM_VALUES!r}"
    )
