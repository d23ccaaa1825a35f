from typing import Literal

WebhookDeliveryEventType = Literal[
    "bulk_job.completed",
    "message.sent",
    "pass.added_to_wallet",
    "pass.balance_changed",
    "pass.created",
    "pass.email_failed",
    "pass.email_sent",
    "pass.erased",
    "pass.redeemed",
    "pass.removed_from_wallet",
    "pass.tier_changed",
    "pass.updated",
    "pass.voided",
    "pass_update.delivered",
    "webhook_endpoint.test",
]

WEBHOOK_DELIVERY_EVENT_TYPE_VALUES: set[WebhookDeliveryEventType] = {
    "bulk_job.completed",
    "message.sent",
    "pass.added_to_wallet",
    "pass.balance_changed",
    "pass.created",
    "pass.email_failed",
    "pass.email_sent",
    "pass.erased",
    "pass.redeemed",
    "pass.removed_from_wallet",
    "pass.tier_changed",
    "pass.updated",
    "pass.voided",
    "pass_update.delivered",
    "webhook_endpoint.test",
}


def check_webhook_delivery_event_type(value: str) -> WebhookDeliveryEventType:
    if value in WEBHOOK_DELIVERY_EVENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WEBHOOK_DELIVERY_EVENT_TYPE_VALUES!r}"
    )
