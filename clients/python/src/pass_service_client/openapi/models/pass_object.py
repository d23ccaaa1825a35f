from typing import Literal

PassObject = Literal["pass"]

PASS_OBJECT_VALUES: set[PassObject] = {
    "pass",
}


def check_pass_object(value: str) -> PassObject:
    if value in PASS_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_OBJECT_VALUES!r}"
    )
