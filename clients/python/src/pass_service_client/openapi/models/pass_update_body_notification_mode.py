from typing import Literal

PassUpdateBodyNotificationMode = Literal["notify", "silent"]

PASS_UPDATE_BODY_NOTIFICATION_MODE_VALUES: set[PassUpdateBodyNotificationMode] = {
    "notify",
    "silent",
}


def check_pass_update_body_notification_mode(
    value: str,
) -> PassUpdateBodyNotificationMode:
    if value in PASS_UPDATE_BODY_NOTIFICATION_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_UPDATE_BODY_NOTIFICATION_MODE_VALUES!r}"
    )
