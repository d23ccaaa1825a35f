from typing import Literal

PassUpdateNotificationMode = Literal["notify", "silent"]

PASS_UPDATE_NOTIFICATION_MODE_VALUES: set[PassUpdateNotificationMode] = {
    "notify",
    "silent",
}


def check_pass_update_notification_mode(value: str) -> PassUpdateNotificationMode:
    if value in PASS_UPDATE_NOTIFICATION_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_UPDATE_NOTIFICATION_MODE_VALUES!r}"
    )
