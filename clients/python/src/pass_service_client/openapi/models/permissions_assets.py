from typing import Literal

PermissionsAssets = Literal["none", "read", "write"]

PERMISSIONS_ASSETS_VALUES: set[PermissionsAssets] = {
    "none",
    "read",
    "write",
}


def check_permissions_assets(value: str) -> PermissionsAssets:
    if value in PERMISSIONS_ASSETS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERMISSIONS_ASSETS_VALUES!r}"
    )
