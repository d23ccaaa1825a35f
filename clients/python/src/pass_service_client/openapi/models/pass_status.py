from typing import Literal

PassStatus = Literal["active", "voided"]

PASS_STATUS_VALUES: set[PassStatus] = {
    "active",
    "voided",
}


def check_pass_status(value: str) -> PassStatus:
    if value in PASS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_STATUS_VALUES!r}"
    )
