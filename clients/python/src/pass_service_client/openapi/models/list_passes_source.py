from typing import Literal

ListPassesSource = Literal["api", "dashboard", "enrollment"]

LIST_PASSES_SOURCE_VALUES: set[ListPassesSource] = {
    "api",
    "dashboard",
    "enrollment",
}


def check_list_passes_source(value: str) -> ListPassesSource:
    if value in LIST_PASSES_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PASSES_SOURCE_VALUES!r}"
    )
