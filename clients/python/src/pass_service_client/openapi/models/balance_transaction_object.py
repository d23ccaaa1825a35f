from typing import Literal

BalanceTransactionObject = Literal["balance_transaction"]

BALANCE_TRANSACTION_OBJECT_VALUES: set[BalanceTransactionObject] = {
    "balance_transaction",
}


def check_balance_transaction_object(value: str) -> BalanceTransactionObject:
    if value in BALANCE_TRANSACTION_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_OBJECT_VALUES!r}"
    )
