from typing import Literal

PassExportUpdatesItemDeliveryGoogleStatus = Literal[
    "failed", "not_saved", "pending", "skipped", "updated"
]

PASS_EXPORT_UPDATES_ITEM_DELIVERY_GOOGLE_STATUS_VALUES: set[
    PassExportUpdatesItemDeliveryGoogleStatus
] = {
    "failed",
    "not_saved",
    "pending",
    "skipped",
    "updated",
}


def check_pass_export_updates_item_delivery_google_status(
    value: str,
) -> PassExportUpdatesItemDeliveryGoogleStatus:
    if value in PASS_EXPORT_UPDATES_ITEM_DELIVERY_GOOGLE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_UPDATES_ITEM_DELIVERY_GOOGLE_STATUS_VALUES!r}"
    )
