from typing import Literal

BulkJobCreateOperation = Literal["adjust_balance", "issue", "update", "upgrade", "void"]

BULK_JOB_CREATE_OPERATION_VALUES: set[BulkJobCreateOperation] = {
    "adjust_balance",
    "issue",
    "update",
    "upgrade",
    "void",
}


def check_bulk_job_create_operation(value: str) -> BulkJobCreateOperation:
    if value in BULK_JOB_CREATE_OPERATION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BULK_JOB_CREATE_OPERATION_VALUES!r}"
    )
