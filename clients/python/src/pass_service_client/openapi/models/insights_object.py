from typing import Literal

InsightsObject = Literal["insights"]

INSIGHTS_OBJECT_VALUES: set[InsightsObject] = {
    "insights",
}


def check_insights_object(value: str) -> InsightsObject:
    if value in INSIGHTS_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {INSIGHTS_OBJECT_VALUES!r}"
    )
