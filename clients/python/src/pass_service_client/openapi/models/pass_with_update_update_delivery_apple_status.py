from typing import Literal

PassWithUpdateUpdateDeliveryAppleStatus = Literal[
    "delivered", "failed", "no_devices", "pending", "sent", "skipped"
]

PASS_WITH_UPDATE_UPDATE_DELIVERY_APPLE_STATUS_VALUES: set[
    PassWithUpdateUpdateDeliveryAppleStatus
] = {
    "delivered",
    "failed",
    "no_devices",
    "pending",
    "sent",
    "skipped",
}


def check_pass_with_update_update_delivery_apple_status(
    value: str,
) -> PassWithUpdateUpdateDeliveryAppleStatus:
    if value in PASS_WITH_UPDATE_UPDATE_DELIVERY_APPLE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_WITH_UPDATE_UPDATE_DELIVERY_APPLE_STATUS_VALUES!r}"
    )
