from typing import Literal

BalanceTransactionResultPassLastEmailType0Locale = Literal["de", "en", "es", "fr"]

BALANCE_TRANSACTION_RESULT_PASS_LAST_EMAIL_TYPE_0_LOCALE_VALUES: set[
    BalanceTransactionResultPassLastEmailType0Locale
] = {
    "de",
    "en",
    "es",
    "fr",
}


def check_balance_transaction_result_pass_last_email_type_0_locale(
    value: str,
) -> BalanceTransactionResultPassLastEmailType0Locale:
    if value in BALANCE_TRANSACTION_RESULT_PASS_LAST_EMAIL_TYPE_0_LOCALE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_RESULT_PASS_LAST_EMAIL_TYPE_0_LOCALE_VALUES!r}"
    )
