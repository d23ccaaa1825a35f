from typing import Literal

PassUpdateDeliveryAppleStatus = Literal[
    "delivered", "failed", "no_devices", "pending", "sent", "skipped"
]

PASS_UPDATE_DELIVERY_APPLE_STATUS_VALUES: set[PassUpdateDeliveryAppleStatus] = {
    "delivered",
    "failed",
    "no_devices",
    "pending",
    "sent",
    "skipped",
}


def check_pass_update_delivery_apple_status(
    value: str,
) -> PassUpdateDeliveryAppleStatus:
    if value in PASS_UPDATE_DELIVERY_APPLE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_UPDATE_DELIVERY_APPLE_STATUS_VALUES!r}"
    )
