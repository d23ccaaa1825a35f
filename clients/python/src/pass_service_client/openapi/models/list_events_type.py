from typing import Literal

ListEventsType = Literal[
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

LIST_EVENTS_TYPE_VALUES: set[ListEventsType] = {
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


def check_list_events_type(value: str) -> ListEventsType:
    if value in LIST_EVENTS_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_EVENTS_TYPE_VALUES!r}"
    )
