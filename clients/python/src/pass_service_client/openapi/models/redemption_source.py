from typing import Literal

RedemptionSource = Literal["api", "scanner"]

REDEMPTION_SOURCE_VALUES: set[RedemptionSource] = {
    "api",
    "scanner",
}


def check_redemption_source(value: str) -> RedemptionSource:
    if value in REDEMPTION_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REDEMPTION_SOURCE_VALUES!r}"
    )
