from typing import Literal

MessageObject = Literal["message"]

MESSAGE_OBJECT_VALUES: set[MessageObject] = {
    "message",
}


def check_message_object(value: str) -> MessageObject:
    if value in MESSAGE_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {MESSAGE_OBJECT_VALUES!r}"
    )
