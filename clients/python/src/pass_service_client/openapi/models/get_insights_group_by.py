from typing import Literal

GetInsightsGroupBy = Literal["day", "platform", "template"]

GET_INSIGHTS_GROUP_BY_VALUES: set[GetInsightsGroupBy] = {
    "day",
    "platform",
    "template",
}


def check_get_insights_group_by(value: str) -> GetInsightsGroupBy:
    if value in GET_INSIGHTS_GROUP_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_INSIGHTS_GROUP_BY_VALUES!r}"
    )
