from typing import Literal

ListPassesStatus = Literal["active", "voided"]

LIST_PASSES_STATUS_VALUES: set[ListPassesStatus] = {
    "active",
    "voided",
}


def check_list_passes_status(value: str) -> ListPassesStatus:
    if value in LIST_PASSES_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PASSES_STATUS_VALUES!r}"
    )
