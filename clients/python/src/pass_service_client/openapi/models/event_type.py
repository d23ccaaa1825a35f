from typing import Literal

EventType = Literal[
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

EVENT_TYPE_VALUES: set[EventType] = {
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


def check_event_type(value: str) -> EventType:
    if value in EVENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EVENT_TYPE_VALUES!r}"
    )
