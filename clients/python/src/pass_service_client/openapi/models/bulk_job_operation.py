from typing import Literal

BulkJobOperation = Literal["adjust_balance", "issue", "update", "upgrade", "void"]

BULK_JOB_OPERATION_VALUES: set[BulkJobOperation] = {
    "adjust_balance",
    "issue",
    "update",
    "upgrade",
    "void",
}


def check_bulk_job_operation(value: str) -> BulkJobOperation:
    if value in BULK_JOB_OPERATION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BULK_JOB_OPERATION_VALUES!r}"
    )
