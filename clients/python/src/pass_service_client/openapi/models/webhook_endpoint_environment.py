from typing import Literal

WebhookEndpointEnvironment = Literal["live", "test"]

WEBHOOK_ENDPOINT_ENVIRONMENT_VALUES: set[WebhookEndpointEnvironment] = {
    "live",
    "test",
}


def check_webhook_endpoint_environment(value: str) -> WebhookEndpointEnvironment:
    if value in WEBHOOK_ENDPOINT_ENVIRONMENT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WEBHOOK_ENDPOINT_ENVIRONMENT_VALUES!r}"
    )
