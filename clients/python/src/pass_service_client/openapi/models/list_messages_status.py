from typing import Literal

ListMessagesStatus = Literal["canceled", "scheduled", "sending", "sent"]

LIST_MESSAGES_STATUS_VALUES: set[ListMessagesStatus] = {
    "canceled",
    "scheduled",
    "sending",
    "sent",
}


def check_list_messages_status(value: str) -> ListMessagesStatus:
    if value in LIST_MESSAGES_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_MESSAGES_STATUS_VALUES!r}"
    )
