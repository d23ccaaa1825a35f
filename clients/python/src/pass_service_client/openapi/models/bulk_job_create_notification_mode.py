from typing import Literal

BulkJobCreateNotificationMode = Literal["notify", "silent"]

BULK_JOB_CREATE_NOTIFICATION_MODE_VALUES: set[BulkJobCreateNotificationMode] = {
    "notify",
    "silent",
}


def check_bulk_job_create_notification_mode(
    value: str,
) -> BulkJobCreateNotificationMode:
    if value in BULK_JOB_CREATE_NOTIFICATION_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BULK_JOB_CREATE_NOTIFICATION_MODE_VALUES!r}"
    )
