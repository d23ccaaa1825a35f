from typing import Literal

InsightsGroupBy = Literal["day", "platform", "template"]

INSIGHTS_GROUP_BY_VALUES: set[InsightsGroupBy] = {
    "day",
    "platform",
    "template",
}


def check_insights_group_by(value: str) -> InsightsGroupBy:
    if value in INSIGHTS_GROUP_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {INSIGHTS_GROUP_BY_VALUES!r}"
    )
