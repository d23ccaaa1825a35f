from typing import Literal

MePermissionsType0Insights = Literal["none", "read", "write"]

ME_PERMISSIONS_TYPE_0_INSIGHTS_VALUES: set[MePermissionsType0Insights] = {
    "none",
    "read",
    "write",
}


def check_me_permissions_type_0_insights(value: str) -> MePermissionsType0Insights:
    if value in ME_PERMISSIONS_TYPE_0_INSIGHTS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_PERMISSIONS_TYPE_0_INSIGHTS_VALUES!r}"
    )
