from typing import Literal

PermissionsPasses = Literal["none", "read", "write"]

PERMISSIONS_PASSES_VALUES: set[PermissionsPasses] = {
    "none",
    "read",
    "write",
}


def check_permissions_passes(value: str) -> PermissionsPasses:
    if value in PERMISSIONS_PASSES_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERMISSIONS_PASSES_VALUES!r}"
    )
