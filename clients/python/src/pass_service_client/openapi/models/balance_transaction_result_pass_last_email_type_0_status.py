from typing import Literal

BalanceTransactionResultPassLastEmailType0Status = Literal["failed", "queued", "sent"]

BALANCE_TRANSACTION_RESULT_PASS_LAST_EMAIL_TYPE_0_STATUS_VALUES: set[
    BalanceTransactionResultPassLastEmailType0Status
] = {
    "failed",
    "queued",
    "sent",
}


def check_balance_transaction_result_pass_last_email_type_0_status(
    value: str,
) -> BalanceTransactionResultPassLastEmailType0Status:
    if value in BALANCE_TRANSACTION_RESULT_PASS_LAST_EMAIL_TYPE_0_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BALANCE_TRANSACTION_RESULT_PASS_LAST_EMAIL_TYPE_0_STATUS_VALUES!r}"
    )
