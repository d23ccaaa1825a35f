from typing import Literal

DeliveryGoogleStatus = Literal["failed", "not_saved", "pending", "skipped", "updated"]

DELIVERY_GOOGLE_STATUS_VALUES: set[DeliveryGoogleStatus] = {
    "failed",
    "not_saved",
    "pending",
    "skipped",
    "updated",
}


def check_delivery_google_status(value: str) -> DeliveryGoogleStatus:
    if value in DELIVERY_GOOGLE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DELIVERY_GOOGLE_STATUS_VALUES!r}"
    )
