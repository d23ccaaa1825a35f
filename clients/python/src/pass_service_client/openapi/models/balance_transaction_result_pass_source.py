from typing import Literal

BalanceTransactionResultPassSource = Literal["api", "dashboard", "enrollment"]

BALANCE_TRANSACTION_RESULT_PASS_SOURCE_VALUES: set[
    BalanceTransactionResultPassSource
] = {
    "api",
    "dashboard",
    "enrollment",
}


def check_balance_transaction_result_pass_source(
    value: str,
) -> BalanceTransactionResultPassSource:
    if value in BALANCE_TRANSACTION_RESULT_PASS_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_RESULT_PASS_SOURCE_VALUES!r}"
    )
