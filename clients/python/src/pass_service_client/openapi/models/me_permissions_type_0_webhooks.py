from typing import Literal

MePermissionsType0Webhooks = Literal["none", "read", "write"]

ME_PERMISSIONS_TYPE_0_WEBHOOKS_VALUES: set[MePermissionsType0Webhooks] = {
    "none",
    "read",
    "write",
}


def check_me_permissions_type_0_webhooks(value: str) -> MePermissionsType0Webhooks:
    if value in ME_PERMISSIONS_TYPE_0_WEBHOOKS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_PERMISSIONS_TYPE_0_WEBHOOKS_VALUES!r}"
    )
