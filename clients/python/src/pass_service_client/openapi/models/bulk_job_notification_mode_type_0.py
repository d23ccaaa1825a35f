from typing import Literal

BulkJobNotificationModeType0 = Literal["notify", "silent"]

BULK_JOB_NOTIFICATION_MODE_TYPE_0_VALUES: set[BulkJobNotificationModeType0] = {
    "notify",
    "silent",
}


def check_bulk_job_notification_mode_type_0(value: str) -> BulkJobNotificationModeType0:
    if value in BULK_JOB_NOTIFICATION_MODE_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BULK_JOB_NOTIFICATION_MODE_TYPE_0_VALUES!r}"
    )
