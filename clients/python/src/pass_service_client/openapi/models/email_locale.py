from typing import Literal

EmailLocale = Literal["de", "en", "es", "fr"]

EMAIL_LOCALE_VALUES: set[EmailLocale] = {
    "de",
    "en",
    "es",
    "fr",
}


def check_email_locale(value: str) -> EmailLocale:
    if value in EMAIL_LOCALE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EMAIL_LOCALE_VALUES!r}"
    )
