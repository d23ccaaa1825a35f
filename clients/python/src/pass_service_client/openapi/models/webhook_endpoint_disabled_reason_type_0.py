from typing import Literal

WebhookEndpointDisabledReasonType0 = Literal["failing", "manual"]

WEBHOOK_ENDPOINT_DISABLED_REASON_TYPE_0_VALUES: set[
    WebhookEndpointDisabledReasonType0
] = {
    "failing",
    "manual",
}


def check_webhook_endpoint_disabled_reason_type_0(
    value: str,
) -> WebhookEndpointDisabledReasonType0:
    if value in WEBHOOK_ENDPOINT_DISABLED_REASON_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WEBHOOK_ENDPOINT_DISABLED_REASON_TYPE_0_VALUES!r}"
    )
