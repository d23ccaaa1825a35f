from typing import Literal

BalanceTransactionResultObject = Literal["balance_transaction"]

BALANCE_TRANSACTION_RESULT_OBJECT_VALUES: set[BalanceTransactionResultObject] = {
    "balance_transaction",
}


def check_balance_transaction_result_object(
    value: str,
) -> BalanceTransactionResultObject:
    if value in BALANCE_TRANSACTION_RESULT_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_RESULT_OBJECT_VALUES!r}"
    )
