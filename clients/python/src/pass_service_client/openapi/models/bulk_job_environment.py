from typing import Literal

BulkJobEnvironment = Literal["live", "test"]

BULK_JOB_ENVIRONMENT_VALUES: set[BulkJobEnvironment] = {
    "live",
    "test",
}


def check_bulk_job_environment(value: str) -> BulkJobEnvironment:
    if value in BULK_JOB_ENVIRONMENT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BULK_JOB_ENVIRONMENT_VALUES!r}"
    )
