from typing import Literal

FieldBinding = Literal["perPass", "shared"]

FIELD_BINDING_VALUES: set[FieldBinding] = {
    "perPass",
    "shared",
}


def check_field_binding(value: str) -> FieldBinding:
    if value in FIELD_BINDING_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {FIELD_BINDING_VALUES!r}"
    )
