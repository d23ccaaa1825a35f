from typing import Literal

PassExportUpdatesItemNotificationMode = Literal["notify", "silent"]

PASS_EXPORT_UPDATES_ITEM_NOTIFICATION_MODE_VALUES: set[
    PassExportUpdatesItemNotificationMode
] = {
    "notify",
    "silent",
}


def check_pass_export_updates_item_notification_mode(
    value: str,
) -> PassExportUpdatesItemNotificationMode:
    if value in PASS_EXPORT_UPDATES_ITEM_NOTIFICATION_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_UPDATES_ITEM_NOTIFICATION_MODE_VALUES!r}"
    )
