from typing import Literal

ScanResultObject = Literal["redemption"]

SCAN_RESULT_OBJECT_VALUES: set[ScanResultObject] = {
    "redemption",
}


def check_scan_result_object(value: str) -> ScanResultObject:
    if value in SCAN_RESULT_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCAN_RESULT_OBJECT_VALUES!r}"
    )
