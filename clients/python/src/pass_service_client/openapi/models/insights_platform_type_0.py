from typing import Literal

InsightsPlatformType0 = Literal["apple", "google"]

INSIGHTS_PLATFORM_TYPE_0_VALUES: set[InsightsPlatformType0] = {
    "apple",
    "google",
}


def check_insights_platform_type_0(value: str) -> InsightsPlatformType0:
    if value in INSIGHTS_PLATFORM_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {INSIGHTS_PLATFORM_TYPE_0_VALUES!r}"
    )
