from typing import Literal

ScanResultSource = Literal["api", "scanner"]

SCAN_RESULT_SOURCE_VALUES: set[ScanResultSource] = {
    "api",
    "scanner",
}


def check_scan_result_source(value: str) -> ScanResultSource:
    if value in SCAN_RESULT_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCAN_RESULT_SOURCE_VALUES!r}"
    )
