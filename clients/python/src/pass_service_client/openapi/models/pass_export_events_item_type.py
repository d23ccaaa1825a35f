from typing import Literal

PassExportEventsItemType = Literal[
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

PASS_EXPORT_EVENTS_ITEM_TYPE_VALUES: set[PassExportEventsItemType] = {
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


def check_pass_export_events_item_type(value: str) -> PassExportEventsItemType:
    if value in PASS_EXPORT_EVENTS_ITEM_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_EVENTS_ITEM_TYPE_VALUES!r}"
    )
