from typing import Literal

PassWithUpdateUpdateDeliveryGoogleStatus = Literal[
    "failed", "not_saved", "pending", "skipped", "updated"
]

PASS_WITH_UPDATE_UPDATE_DELIVERY_GOOGLE_STATUS_VALUES: set[
    PassWithUpdateUpdateDeliveryGoogleStatus
] = {
    "failed",
    "not_saved",
    "pending",
    "skipped",
    "updated",
}


def check_pass_with_update_update_delivery_google_status(
    value: str,
) -> PassWithUpdateUpdateDeliveryGoogleStatus:
    if value in PASS_WITH_UPDATE_UPDATE_DELIVERY_GOOGLE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_WITH_UPDATE_UPDATE_DELIVERY_GOOGLE_STATUS_VALUES!r}"
    )
