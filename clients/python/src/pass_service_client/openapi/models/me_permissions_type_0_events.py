from typing import Literal

MePermissionsType0Events = Literal["none", "read", "write"]

ME_PERMISSIONS_TYPE_0_EVENTS_VALUES: set[MePermissionsType0Events] = {
    "none",
    "read",
    "write",
}


def check_me_permissions_type_0_events(value: str) -> MePermissionsType0Events:
    if value in ME_PERMISSIONS_TYPE_0_EVENTS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_PERMISSIONS_TYPE_0_EVENTS_VALUES!r}"
    )
