from typing import Literal

BalanceTransactionResultSource = Literal["api", "bulk", "dashboard", "scanner"]

BALANCE_TRANSACTION_RESULT_SOURCE_VALUES: set[BalanceTransactionResultSource] = {
    "api",
    "bulk",
    "dashboard",
    "scanner",
}


def check_balance_transaction_result_source(
    value: str,
) -> BalanceTransactionResultSource:
    if value in BALANCE_TRANSACTION_RESULT_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_RESULT_SOURCE_VALUES!r}"
    )
