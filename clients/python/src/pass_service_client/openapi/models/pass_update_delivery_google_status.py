from typing import Literal

PassUpdateDeliveryGoogleStatus = Literal[
    "failed", "not_saved", "pending", "skipped", "updated"
]

PASS_UPDATE_DELIVERY_GOOGLE_STATUS_VALUES: set[PassUpdateDeliveryGoogleStatus] = {
    "failed",
    "not_saved",
    "pending",
    "skipped",
    "updated",
}


def check_pass_update_delivery_google_status(
    value: str,
) -> PassUpdateDeliveryGoogleStatus:
    if value in PASS_UPDATE_DELIVERY_GOOGLE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_UPDATE_DELIVERY_GOOGLE_STATUS_VALUES!r}"
    )
