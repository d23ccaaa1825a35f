from typing import Literal

PermissionsWebhooks = Literal["none", "read", "write"]

PERMISSIONS_WEBHOOKS_VALUES: set[PermissionsWebhooks] = {
    "none",
    "read",
    "write",
}


def check_permissions_webhooks(value: str) -> PermissionsWebhooks:
    if value in PERMISSIONS_WEBHOOKS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERMISSIONS_WEBHOOKS_VALUES!r}"
    )
