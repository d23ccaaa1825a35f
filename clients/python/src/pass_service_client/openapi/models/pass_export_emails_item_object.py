from typing import Literal

PassExportEmailsItemObject = Literal["email"]

PASS_EXPORT_EMAILS_ITEM_OBJECT_VALUES: set[PassExportEmailsItemObject] = {
    "email",
}


def check_pass_export_emails_item_object(value: str) -> PassExportEmailsItemObject:
    if value in PASS_EXPORT_EMAILS_ITEM_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_EMAILS_ITEM_OBJECT_VALUES!r}"
    )
