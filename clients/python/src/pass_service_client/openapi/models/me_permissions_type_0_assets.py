from typing import Literal

MePermissionsType0Assets = Literal["none", "read", "write"]

ME_PERMISSIONS_TYPE_0_ASSETS_VALUES: set[MePermissionsType0Assets] = {
    "none",
    "read",
    "write",
}


def check_me_permissions_type_0_assets(value: str) -> MePermissionsType0Assets:
    if value in ME_PERMISSIONS_TYPE_0_ASSETS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_PERMISSIONS_TYPE_0_ASSETS_VALUES!r}"
    )
