from typing import Literal

BalanceTransactionResultPassLastEmailType0Object = Literal["email"]

BALANCE_TRANSACTION_RESULT_PASS_LAST_EMAIL_TYPE_0_OBJECT_VALUES: set[
    BalanceTransactionResultPassLastEmailType0Object
] = {
    "email",
}


def check_balance_transaction_result_pass_last_email_type_0_object(
    value: str,
) -> BalanceTransactionResultPassLastEmailType0Object:
    if value in BALANCE_TRANSACTION_RESULT_PASS_LAST_EMAIL_TYPE_0_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_RESULT_PASS_LAST_EMAIL_TYPE_0_OBJECT_VALUES!r}"
    )
