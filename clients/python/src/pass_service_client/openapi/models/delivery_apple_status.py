from typing import Literal

DeliveryAppleStatus = Literal[
    "delivered", "failed", "no_devices", "pending", "sent", "skipped"
]

DELIVERY_APPLE_STATUS_VALUES: set[DeliveryAppleStatus] = {
    "delivered",
    "failed",
    "no_devices",
    "pending",
    "sent",
    "skipped",
}


def check_delivery_apple_status(value: str) -> DeliveryAppleStatus:
    if value in DELIVERY_APPLE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DELIVERY_APPLE_STATUS_VALUES!r}"
    )
