from typing import Literal

PassExportUpdatesItemDeliveryAppleStatus = Literal[
    "delivered", "failed", "no_devices", "pending", "sent", "skipped"
]

PASS_EXPORT_UPDATES_ITEM_DELIVERY_APPLE_STATUS_VALUES: set[
    PassExportUpdatesItemDeliveryAppleStatus
] = {
    "delivered",
    "failed",
    "no_devices",
    "pending",
    "sent",
    "skipped",
}


def check_pass_export_updates_item_delivery_apple_status(
    value: str,
) -> PassExportUpdatesItemDeliveryAppleStatus:
    if value in PASS_EXPORT_UPDATES_ITEM_DELIVERY_APPLE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_UPDATES_ITEM_DELIVERY_APPLE_STATUS_VALUES!r}"
    )
