from typing import Literal

MePermissionsType0Passes = Literal["none", "read", "write"]

ME_PERMISSIONS_TYPE_0_PASSES_VALUES: set[MePermissionsType0Passes] = {
    "none",
    "read",
    "write",
}


def check_me_permissions_type_0_passes(value: str) -> MePermissionsType0Passes:
    if value in ME_PERMISSIONS_TYPE_0_PASSES_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_PERMISSIONS_TYPE_0_PASSES_VALUES!r}"
    )
