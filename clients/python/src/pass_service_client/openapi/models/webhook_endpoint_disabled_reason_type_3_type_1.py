from typing import Literal

WebhookEndpointDisabledReasonType3Type1 = Literal["failing", "manual"]

WEBHOOK_ENDPOINT_DISABLED_REASON_TYPE_3_TYPE_1_VALUES: set[
    WebhookEndpointDisabledReasonType3Type1
] = {
    "failing",
    "manual",
}


def check_webhook_endpoint_disabled_reason_type_3_type_1(
    value: str,
) -> WebhookEndpointDisabledReasonType3Type1:
    if value in WEBHOOK_ENDPOINT_DISABLED_REASON_TYPE_3_TYPE_1_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WEBHOOK_ENDPOINT_DISABLED_REASON_TYPE_3_TYPE_1_VALUES!r}"
    )
