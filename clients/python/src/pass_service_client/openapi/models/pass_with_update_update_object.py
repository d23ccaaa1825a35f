from typing import Literal

PassWithUpdateUpdateObject = Literal["pass_update"]

PASS_WITH_UPDATE_UPDATE_OBJECT_VALUES: set[PassWithUpdateUpdateObject] = {
    "pass_update",
}


def check_pass_with_update_update_object(value: str) -> PassWithUpdateUpdateObject:
    if value in PASS_WITH_UPDATE_UPDATE_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_WITH_UPDATE_UPDATE_OBJECT_VALUES!r}"
    )
