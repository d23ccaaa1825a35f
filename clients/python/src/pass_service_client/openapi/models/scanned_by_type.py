from typing import Literal

ScannedByType = Literal["apiKey", "user"]

SCANNED_BY_TYPE_VALUES: set[ScannedByType] = {
    "apiKey",
    "user",
}


def check_scanned_by_type(value: str) -> ScannedByType:
    if value in SCANNED_BY_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCANNED_BY_TYPE_VALUES!r}"
    )
