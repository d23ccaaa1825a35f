from typing import Literal

SeriesItemPlatform = Literal["apple", "google"]

SERIES_ITEM_PLATFORM_VALUES: set[SeriesItemPlatform] = {
    "apple",
    "google",
}


def check_series_item_platform(value: str) -> SeriesItemPlatform:
    if value in SERIES_ITEM_PLATFORM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SERIES_ITEM_PLATFORM_VALUES!r}"
    )
