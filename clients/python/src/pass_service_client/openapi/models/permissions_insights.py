from typing import Literal

PermissionsInsights = Literal["none", "read", "write"]

PERMISSIONS_INSIGHTS_VALUES: set[PermissionsInsights] = {
    "none",
    "read",
    "write",
}


def check_permissions_insights(value: str) -> PermissionsInsights:
    if value in PERMISSIONS_INSIGHTS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERMISSIONS_INSIGHTS_VALUES!r}"
    )
