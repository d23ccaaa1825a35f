from typing import Literal

BalanceTransactionSource = Literal["api", "bulk", "dashboard", "scanner"]

BALANCE_TRANSACTION_SOURCE_VALUES: set[BalanceTransactionSource] = {
    "api",
    "bulk",
    "dashboard",
    "scanner",
}


def check_balance_transaction_source(value: str) -> BalanceTransactionSource:
    if value in BALANCE_TRANSACTION_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_SOURCE_VALUES!r}"
    )
