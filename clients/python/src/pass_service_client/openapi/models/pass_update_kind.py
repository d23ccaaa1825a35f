from typing import Literal

PassUpdateKind = Literal["erase", "message", "update", "void"]

PASS_UPDATE_KIND_VALUES: set[PassUpdateKind] = {
    "erase",
    "message",
    "update",
    "void",
}


def check_pass_update_kind(value: str) -> PassUpdateKind:
    if value in PASS_UPDATE_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_UPDATE_KIND_VALUES!r}"
    )
