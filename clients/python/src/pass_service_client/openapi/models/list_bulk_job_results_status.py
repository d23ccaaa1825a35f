from typing import Literal

ListBulkJobResultsStatus = Literal["canceled", "failed", "pending", "succeeded"]

LIST_BULK_JOB_RESULTS_STATUS_VALUES: set[ListBulkJobResultsStatus] = {
    "canceled",
    "failed",
    "pending",
    "succeeded",
}


def check_list_bulk_job_results_status(value: str) -> ListBulkJobResultsStatus:
    if value in LIST_BULK_JOB_RESULTS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_BULK_JOB_RESULTS_STATUS_VALUES!r}"
    )
