from typing import Literal

PermissionsTemplates = Literal["none", "read", "write"]

PERMISSIONS_TEMPLATES_VALUES: set[PermissionsTemplates] = {
    "none",
    "read",
    "write",
}


def check_permissions_templates(value: str) -> PermissionsTemplates:
    if value in PERMISSIONS_TEMPLATES_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERMISSIONS_TEMPLATES_VALUES!r}"
    )
