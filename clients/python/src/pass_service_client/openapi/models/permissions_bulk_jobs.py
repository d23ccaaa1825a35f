from typing import Literal

PermissionsBulkJobs = Literal["none", "read", "write"]

PERMISSIONS_BULK_JOBS_VALUES: set[PermissionsBulkJobs] = {
    "none",
    "read",
    "write",
}


def check_permissions_bulk_jobs(value: str) -> PermissionsBulkJobs:
    if value in PERMISSIONS_BULK_JOBS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERMISSIONS_BULK_JOBS_VALUES!r}"
    )
