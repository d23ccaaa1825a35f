from typing import Literal

EmailStatus = Literal["failed", "queued", "sent"]

EMAIL_STATUS_VALUES: set[EmailStatus] = {
    "failed",
    "queued",
    "sent",
}


def check_email_status(value: str) -> EmailStatus:
    if value in EMAIL_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EMAIL_STATUS_VALUES!r}"
    )
