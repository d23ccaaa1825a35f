from typing import Literal

BulkJobObject = Literal["bulk_job"]

BULK_JOB_OBJECT_VALUES: set[BulkJobObject] = {
    "bulk_job",
}


def check_bulk_job_object(value: str) -> BulkJobObject:
    if value in BULK_JOB_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BULK_JOB_OBJECT_VALUES!r}"
    )
