from typing import Literal

RedemptionScannedByType0Type = Literal["apiKey", "user"]

REDEMPTION_SCANNED_BY_TYPE_0_TYPE_VALUES: set[RedemptionScannedByType0Type] = {
    "apiKey",
    "user",
}


def check_redemption_scanned_by_type_0_type(value: str) -> RedemptionScannedByType0Type:
    if value in REDEMPTION_SCANNED_BY_TYPE_0_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REDEMPTION_SCANNED_BY_TYPE_0_TYPE_VALUES!r}"
    )
