from typing import Literal

GetInsightsPlatform = Literal["apple", "google"]

GET_INSIGHTS_PLATFORM_VALUES: set[GetInsightsPlatform] = {
    "apple",
    "google",
}


def check_get_insights_platform(value: str) -> GetInsightsPlatform:
    if value in GET_INSIGHTS_PLATFORM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_INSIGHTS_PLATFORM_VALUES!r}"
    )
