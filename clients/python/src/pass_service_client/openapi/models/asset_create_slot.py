from typing import Literal

AssetCreateSlot = Literal["background", "hero", "icon", "logo", "strip", "thumbnail"]

ASSET_CREATE_SLOT_VALUES: set[AssetCreateSlot] = {
    "background",
    "hero",
    "icon",
    "logo",
    "strip",
    "thumbnail",
}


def check_asset_create_slot(value: str) -> AssetCreateSlot:
    if value in ASSET_CREATE_SLOT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ASSET_CREATE_SLOT_VALUES!r}"
    )
