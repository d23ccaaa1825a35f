from typing import Literal

ListBulkJobsStatus = Literal["canceled", "completed", "failed", "queued", "running"]

LIST_BULK_JOBS_STATUS_VALUES: set[ListBulkJobsStatus] = {
    "canceled",
    "completed",
    "failed",
    "queued",
    "running",
}


def check_list_bulk_jobs_status(value: str) -> ListBulkJobsStatus:
    if value in LIST_BULK_JOBS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_BULK_JOBS_STATUS_VALUES!r}"
    )
