from typing import Literal

PassLastEmailType0Status = Literal["failed", "queued", "sent"]

PASS_LAST_EMAIL_TYPE_0_STATUS_VALUES: set[PassLastEmailType0Status] = {
    "failed",
    "queued",
    "sent",
}


def check_pass_last_email_type_0_status(value: str) -> PassLastEmailType0Status:
    if value in PASS_LAST_EMAIL_TYPE_0_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_LAST_EMAIL_TYPE_0_STATUS_VALUES!r}"
    )
