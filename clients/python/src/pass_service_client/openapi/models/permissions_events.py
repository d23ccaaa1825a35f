from typing import Literal

PermissionsEvents = Literal["none", "read", "write"]

PERMISSIONS_EVENTS_VALUES: set[PermissionsEvents] = {
    "none",
    "read",
    "write",
}


def check_permissions_events(value: str) -> PermissionsEvents:
    if value in PERMISSIONS_EVENTS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERMISSIONS_EVENTS_VALUES!r}"
    )
