from typing import Literal

WebhookDeliveryAttemptsItemErrorType0Code = Literal[
    "address_not_allowed",
    "connection_failed",
    "dns_failed",
    "http_status",
    "invalid_url",
    "redirect",
    "timeout",
]

WEBHOOK_DELIVERY_ATTEMPTS_ITEM_ERROR_TYPE_0_CODE_VALUES: set[
    WebhookDeliveryAttemptsItemErrorType0Code
] = {
    "address_not_allowed",
    "connection_failed",
    "dns_failed",
    "http_status",
    "invalid_url",
    "redirect",
    "timeout",
}


def check_webhook_delivery_attempts_item_error_type_0_code(
    value: str,
) -> WebhookDeliveryAttemptsItemErrorType0Code:
    if value in WEBHOOK_DELIVERY_ATTEMPTS_ITEM_ERROR_TYPE_0_CODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WEBHOOK_DELIVERY_ATTEMPTS_ITEM_ERROR_TYPE_0_CODE_VALUES!r}"
    )
