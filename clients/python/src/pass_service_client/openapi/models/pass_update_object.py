from typing import Literal

PassUpdateObject = Literal["pass_update"]

PASS_UPDATE_OBJECT_VALUES: set[PassUpdateObject] = {
    "pass_update",
}


def check_pass_update_object(value: str) -> PassUpdateObject:
    if value in PASS_UPDATE_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_UPDATE_OBJECT_VALUES!r}"
    )
