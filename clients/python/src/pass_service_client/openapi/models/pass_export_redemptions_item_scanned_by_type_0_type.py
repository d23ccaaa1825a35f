from typing import Literal

PassExportRedemptionsItemScannedByType0Type = Literal["apiKey", "user"]

PASS_EXPORT_REDEMPTIONS_ITEM_SCANNED_BY_TYPE_0_TYPE_VALUES: set[
    PassExportRedemptionsItemScannedByType0Type
] = {
    "apiKey",
    "user",
}


def check_pass_export_redemptions_item_scanned_by_type_0_type(
    value: str,
) -> PassExportRedemptionsItemScannedByType0Type:
    if value in PASS_EXPORT_REDEMPTIONS_ITEM_SCANNED_BY_TYPE_0_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_REDEMPTIONS_ITEM_SCANNED_BY_TYPE_0_TYPE_VALUES!r}"
    )
