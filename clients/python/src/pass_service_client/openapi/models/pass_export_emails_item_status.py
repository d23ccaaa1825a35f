from typing import Literal

PassExportEmailsItemStatus = Literal["failed", "queued", "sent"]

PASS_EXPORT_EMAILS_ITEM_STATUS_VALUES: set[PassExportEmailsItemStatus] = {
    "failed",
    "queued",
    "sent",
}


def check_pass_export_emails_item_status(value: str) -> PassExportEmailsItemStatus:
    if value in PASS_EXPORT_EMAILS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_EMAILS_ITEM_STATUS_VALUES!r}"
    )
