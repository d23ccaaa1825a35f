from typing import Literal

AssetContentType = Literal["image/gif", "image/jpeg", "image/png", "image/webp"]

ASSET_CONTENT_TYPE_VALUES: set[AssetContentType] = {
    "image/gif",
    "image/jpeg",
    "image/png",
    "image/webp",
}


def check_asset_content_type(value: str) -> AssetContentType:
    if value in ASSET_CONTENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ASSET_CONTENT_TYPE_VALUES!r}"
    )
