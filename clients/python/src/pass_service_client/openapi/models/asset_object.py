from typing import Literal

AssetObject = Literal["asset"]

ASSET_OBJECT_VALUES: set[AssetObject] = {
    "asset",
}


def check_asset_object(value: str) -> AssetObject:
    if value in ASSET_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ASSET_OBJECT_VALUES!r}"
    )
