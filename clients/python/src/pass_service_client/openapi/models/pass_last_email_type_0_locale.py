from typing import Literal

PassLastEmailType0Locale = Literal["de", "en", "es", "fr"]

PASS_LAST_EMAIL_TYPE_0_LOCALE_VALUES: set[PassLastEmailType0Locale] = {
    "de",
    "en",
    "es",
    "fr",
}


def check_pass_last_email_type_0_locale(value: str) -> PassLastEmailType0Locale:
    if value in PASS_LAST_EMAIL_TYPE_0_LOCALE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_LAST_EMAIL_TYPE_0_LOCALE_VALUES!r}"
    )
