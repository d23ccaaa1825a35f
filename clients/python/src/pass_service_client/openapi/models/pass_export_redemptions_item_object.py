from typing import Literal

PassExportRedemptionsItemObject = Literal["redemption"]

PASS_EXPORT_REDEMPTIONS_ITEM_OBJECT_VALUES: set[PassExportRedemptionsItemObject] = {
    "redemption",
}


def check_pass_export_redemptions_item_object(
    value: str,
) -> PassExportRedemptionsItemObject:
    if value in PASS_EXPORT_REDEMPTIONS_ITEM_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_REDEMPTIONS_ITEM_OBJECT_VALUES!r}"
    )
