from typing import Literal

PassExportEmailsItemLocale = Literal["de", "en", "es", "fr"]

PASS_EXPORT_EMAILS_ITEM_LOCALE_VALUES: set[PassExportEmailsItemLocale] = {
    "de",
    "en",
    "es",
    "fr",
}


def check_pass_export_emails_item_locale(value: str) -> PassExportEmailsItemLocale:
    if value in PASS_EXPORT_EMAILS_ITEM_LOCALE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_EMAILS_ITEM_LOCALE_VALUES!r}"
    )
