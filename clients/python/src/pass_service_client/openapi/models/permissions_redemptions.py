from typing import Literal

PermissionsRedemptions = Literal["none", "read", "write"]

PERMISSIONS_REDEMPTIONS_VALUES: set[PermissionsRedemptions] = {
    "none",
    "read",
    "write",
}


def check_permissions_redemptions(value: str) -> PermissionsRedemptions:
    if value in PERMISSIONS_REDEMPTIONS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERMISSIONS_REDEMPTIONS_VALUES!r}"
    )
