from typing import Literal

DownloadLinkObject = Literal["download_link"]

DOWNLOAD_LINK_OBJECT_VALUES: set[DownloadLinkObject] = {
    "download_link",
}


def check_download_link_object(value: str) -> DownloadLinkObject:
    if value in DOWNLOAD_LINK_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DOWNLOAD_LINK_OBJECT_VALUES!r}"
    )
