from typing import Literal

ScanResultScannedByType0Type = Literal["apiKey", "user"]

SCAN_RESULT_SCANNED_BY_TYPE_0_TYPE_VALUES: set[ScanResultScannedByType0Type] = {
    "apiKey",
    "user",
}


def check_scan_result_scanned_by_type_0_type(
    value: str,
) -> ScanResultScannedByType0Type:
    if value in SCAN_RESULT_SCANNED_BY_TYPE_0_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCAN_RESULT_SCANNED_BY_TYPE_0_TYPE_VALUES!r}"
    )
