from typing import Literal

AssetSlot = Literal["background", "hero", "icon", "logo", "strip", "thumbnail"]

ASSET_SLOT_VALUES: set[AssetSlot] = {
    "background",
    "hero",
    "icon",
    "logo",
    "strip",
    "thumbnail",
}


def check_asset_slot(value: str) -> AssetSlot:
    if value in ASSET_SLOT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ASSET_SLOT_VALUES!r}"
    )
