from typing import Literal

PassWithUpdateUpdateKind = Literal["erase", "message", "update", "void"]

PASS_WITH_UPDATE_UPDATE_KIND_VALUES: set[PassWithUpdateUpdateKind] = {
    "erase",
    "message",
    "update",
    "void",
}


def check_pass_with_update_update_kind(value: str) -> PassWithUpdateUpdateKind:
    if value in PASS_WITH_UPDATE_UPDATE_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_WITH_UPDATE_UPDATE_KIND_VALUES!r}"
    )
