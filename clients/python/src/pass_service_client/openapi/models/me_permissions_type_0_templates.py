from typing import Literal

MePermissionsType0Templates = Literal["none", "read", "write"]

ME_PERMISSIONS_TYPE_0_TEMPLATES_VALUES: set[MePermissionsType0Templates] = {
    "none",
    "read",
    "write",
}


def check_me_permissions_type_0_templates(value: str) -> MePermissionsType0Templates:
    if value in ME_PERMISSIONS_TYPE_0_TEMPLATES_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_PERMISSIONS_TYPE_0_TEMPLATES_VALUES!r}"
    )
