from typing import Literal

BalanceTransactionResultPassEnvironment = Literal["live", "test"]

BALANCE_TRANSACTION_RESULT_PASS_ENVIRONMENT_VALUES: set[
    BalanceTransactionResultPassEnvironment
] = {
    "live",
    "test",
}


def check_balance_transaction_result_pass_environment(
    value: str,
) -> BalanceTransactionResultPassEnvironment:
    if value in BALANCE_TRANSACTION_RESULT_PASS_ENVIRONMENT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_RESULT_PASS_ENVIRONMENT_VALUES!r}"
    )
