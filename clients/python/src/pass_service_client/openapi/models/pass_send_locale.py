from typing import Literal

PassSendLocale = Literal["de", "en", "es", "fr"]

PASS_SEND_LOCALE_VALUES: set[PassSendLocale] = {
    "de",
    "en",
    "es",
    "fr",
}


def check_pass_send_locale(value: str) -> PassSendLocale:
    if value in PASS_SEND_LOCALE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_SEND_LOCALE_VALUES!r}"
    )
