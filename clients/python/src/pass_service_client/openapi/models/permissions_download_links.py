from typing import Literal

PermissionsDownloadLinks = Literal["none", "read", "write"]

PERMISSIONS_DOWNLOAD_LINKS_VALUES: set[PermissionsDownloadLinks] = {
    "none",
    "read",
    "write",
}


def check_permissions_download_links(value: str) -> PermissionsDownloadLinks:
    if value in PERMISSIONS_DOWNLOAD_LINKS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERMISSIONS_DOWNLOAD_LINKS_VALUES!r}"
    )
