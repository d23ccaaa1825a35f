from typing import Literal

PassWithUpdateUpdateNotificationMode = Literal["notify", "silent"]

PASS_WITH_UPDATE_UPDATE_NOTIFICATION_MODE_VALUES: set[
    PassWithUpdateUpdateNotificationMode
] = {
    "notify",
    "silent",
}


def check_pass_with_update_update_notification_mode(
    value: str,
) -> PassWithUpdateUpdateNotificationMode:
    if value in PASS_WITH_UPDATE_UPDATE_NOTIFICATION_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_WITH_UPDATE_UPDATE_NOTIFICATION_MODE_VALUES!r}"
    )
