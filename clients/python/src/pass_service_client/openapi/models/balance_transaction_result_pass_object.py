from typing import Literal

BalanceTransactionResultPassObject = Literal["pass"]

BALANCE_TRANSACTION_RESULT_PASS_OBJECT_VALUES: set[
    BalanceTransactionResultPassObject
] = {
    "pass",
}


def check_balance_transaction_result_pass_object(
    value: str,
) -> BalanceTransactionResultPassObject:
    if value in BALANCE_TRANSACTION_RESULT_PASS_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_RESULT_PASS_OBJECT_VALUES!r}"
    )
