from typing import Literal

MessageStatus = Literal["canceled", "scheduled", "sending", "sent"]

MESSAGE_STATUS_VALUES: set[MessageStatus] = {
    "canceled",
    "scheduled",
    "sending",
    "sent",
}


def check_message_status(value: str) -> MessageStatus:
    if value in MESSAGE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {MESSAGE_STATUS_VALUES!r}"
    )
