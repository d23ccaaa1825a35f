from typing import Literal

MePermissionsType0DownloadLinks = Literal["none", "read", "write"]

ME_PERMISSIONS_TYPE_0_DOWNLOAD_LINKS_VALUES: set[MePermissionsType0DownloadLinks] = {
    "none",
    "read",
    "write",
}


def check_me_permissions_type_0_download_links(
    value: str,
) -> MePermissionsType0DownloadLinks:
    if value in ME_PERMISSIONS_TYPE_0_DOWNLOAD_LINKS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_PERMISSIONS_TYPE_0_DOWNLOAD_LINKS_VALUES!r}"
    )
