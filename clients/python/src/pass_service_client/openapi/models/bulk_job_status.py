from typing import Literal

BulkJobStatus = Literal["canceled", "completed", "failed", "queued", "running"]

BULK_JOB_STATUS_VALUES: set[BulkJobStatus] = {
    "canceled",
    "completed",
    "failed",
    "queued",
    "running",
}


def check_bulk_job_status(value: str) -> BulkJobStatus:
    if value in BULK_JOB_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BULK_JOB_STATUS_VALUES!r}"
    )
