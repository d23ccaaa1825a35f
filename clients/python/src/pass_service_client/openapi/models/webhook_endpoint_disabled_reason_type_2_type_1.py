from typing import Literal

WebhookEndpointDisabledReasonType2Type1 = Literal["failing", "manual"]

WEBHOOK_ENDPOINT_DISABLED_REASON_TYPE_2_TYPE_1_VALUES: set[
    WebhookEndpointDisabledReasonType2Type1
] = {
    "failing",
    "manual",
}


def check_webhook_endpoint_disabled_reason_type_2_type_1(
    value: str,
) -> WebhookEndpointDisabledReasonType2Type1:
    if value in WEBHOOK_ENDPOINT_DISABLED_REASON_TYPE_2_TYPE_1_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WEBHOOK_ENDPOINT_DISABLED_REASON_TYPE_2_TYPE_1_VALUES!r}"
    )
