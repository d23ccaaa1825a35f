from typing import Literal

MessageSource = Literal["api", "dashboard"]

MESSAGE_SOURCE_VALUES: set[MessageSource] = {
    "api",
    "dashboard",
}


def check_message_source(value: str) -> MessageSource:
    if value in MESSAGE_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {MESSAGE_SOURCE_VALUES!r}"
    )
