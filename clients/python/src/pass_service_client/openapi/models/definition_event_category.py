from typing import Literal

DefinitionEventCategory = Literal[
    "conference",
    "convention",
    "generic",
    "livePerformance",
    "movie",
    "socialGathering",
    "sports",
    "workshop",
]

DEFINITION_EVENT_CATEGORY_VALUES: set[DefinitionEventCategory] = {
    "conference",
    "convention",
    "generic",
    "livePerformance",
    "movie",
    "socialGathering",
    "sports",
    "workshop",
}


def check_definition_event_category(value: str) -> DefinitionEventCategory:
    if value in DEFINITION_EVENT_CATEGORY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DEFINITION_EVENT_CATEGORY_VALUES!r}"
    )
