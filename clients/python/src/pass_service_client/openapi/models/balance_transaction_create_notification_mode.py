from typing import Literal

BalanceTransactionCreateNotificationMode = Literal["notify", "silent"]

BALANCE_TRANSACTION_CREATE_NOTIFICATION_MODE_VALUES: set[
    BalanceTransactionCreateNotificationMode
] = {
    "notify",
    "silent",
}


def check_balance_transaction_create_notification_mode(
    value: str,
) -> BalanceTransactionCreateNotificationMode:
    if value in BALANCE_TRANSACTION_CREATE_NOTIFICATION_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_CREATE_NOTIFICATION_MODE_VALUES!r}"
    )
