from typing import Literal

MePermissionsType0Redemptions = Literal["none", "read", "write"]

ME_PERMISSIONS_TYPE_0_REDEMPTIONS_VALUES: set[MePermissionsType0Redemptions] = {
    "none",
    "read",
    "write",
}


def check_me_permissions_type_0_redemptions(
    value: str,
) -> MePermissionsType0Redemptions:
    if value in ME_PERMISSIONS_TYPE_0_REDEMPTIONS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_PERMISSIONS_TYPE_0_REDEMPTIONS_VALUES!r}"
    )
