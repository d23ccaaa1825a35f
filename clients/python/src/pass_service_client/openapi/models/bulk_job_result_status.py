from typing import Literal

BulkJobResultStatus = Literal["canceled", "failed", "pending", "succeeded"]

BULK_JOB_RESULT_STATUS_VALUES: set[BulkJobResultStatus] = {
    "canceled",
    "failed",
    "pending",
    "succeeded",
}


def check_bulk_job_result_status(value: str) -> BulkJobResultStatus:
    if value in BULK_JOB_RESULT_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BULK_JOB_RESULT_STATUS_VALUES!r}"
    )
