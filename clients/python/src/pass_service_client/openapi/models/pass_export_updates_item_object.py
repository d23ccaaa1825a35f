from typing import Literal

PassExportUpdatesItemObject = Literal["pass_update"]

PASS_EXPORT_UPDATES_ITEM_OBJECT_VALUES: set[PassExportUpdatesItemObject] = {
    "pass_update",
}


def check_pass_export_updates_item_object(value: str) -> PassExportUpdatesItemObject:
    if value in PASS_EXPORT_UPDATES_ITEM_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_UPDATES_ITEM_OBJECT_VALUES!r}"
    )
