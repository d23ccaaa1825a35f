from typing import Literal

RedemptionObject = Literal["redemption"]

REDEMPTION_OBJECT_VALUES: set[RedemptionObject] = {
    "redemption",
}


def check_redemption_object(value: str) -> RedemptionObject:
    if value in REDEMPTION_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REDEMPTION_OBJECT_VALUES!r}"
    )
