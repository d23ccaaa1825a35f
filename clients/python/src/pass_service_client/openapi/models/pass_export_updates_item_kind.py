from typing import Literal

PassExportUpdatesItemKind = Literal["erase", "message", "update", "void"]

PASS_EXPORT_UPDATES_ITEM_KIND_VALUES: set[PassExportUpdatesItemKind] = {
    "erase",
    "message",
    "update",
    "void",
}


def check_pass_export_updates_item_kind(value: str) -> PassExportUpdatesItemKind:
    if value in PASS_EXPORT_UPDATES_ITEM_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_UPDATES_ITEM_KIND_VALUES!r}"
    )
