from typing import Literal

PassSource = Literal["api", "dashboard", "enrollment"]

PASS_SOURCE_VALUES: set[PassSource] = {
    "api",
    "dashboard",
    "enrollment",
}


def check_pass_source(value: str) -> PassSource:
    if value in PASS_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_SOURCE_VALUES!r}"
    )
