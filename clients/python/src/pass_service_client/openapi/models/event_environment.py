from typing import Literal

EventEnvironment = Literal["live", "test"]

EVENT_ENVIRONMENT_VALUES: set[EventEnvironment] = {
    "live",
    "test",
}


def check_event_environment(value: str) -> EventEnvironment:
    if value in EVENT_ENVIRONMENT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EVENT_ENVIRONMENT_VALUES!r}"
    )
