from typing import Literal

PassExportRedemptionsItemSource = Literal["api", "scanner"]

PASS_EXPORT_REDEMPTIONS_ITEM_SOURCE_VALUES: set[PassExportRedemptionsItemSource] = {
    "api",
    "scanner",
}


def check_pass_export_redemptions_item_source(
    value: str,
) -> PassExportRedemptionsItemSource:
    if value in PASS_EXPORT_REDEMPTIONS_ITEM_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_REDEMPTIONS_ITEM_SOURCE_VALUES!r}"
    )
