from typing import Literal

PassExportEventsItemObject = Literal["event"]

PASS_EXPORT_EVENTS_ITEM_OBJECT_VALUES: set[PassExportEventsItemObject] = {
    "event",
}


def check_pass_export_events_item_object(value: str) -> PassExportEventsItemObject:
    if value in PASS_EXPORT_EVENTS_ITEM_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_EVENTS_ITEM_OBJECT_VALUES!r}"
    )
