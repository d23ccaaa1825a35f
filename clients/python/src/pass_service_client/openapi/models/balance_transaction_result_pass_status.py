from typing import Literal

BalanceTransactionResultPassStatus = Literal["active", "voided"]

BALANCE_TRANSACTION_RESULT_PASS_STATUS_VALUES: set[
    BalanceTransactionResultPassStatus
] = {
    "active",
    "voided",
}


def check_balance_transaction_result_pass_status(
    value: str,
) -> BalanceTransactionResultPassStatus:
    if value in BALANCE_TRANSACTION_RESULT_PASS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_RESULT_PASS_STATUS_VALUES!r}"
    )
