from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.download_link_object import DownloadLinkObject, check_download_link_object
from ..types import UNSET, Unset

T = TypeVar("T", bound="DownloadLink")


@_attrs_define
class DownloadLink:
    """
    Attributes:
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
        id (str):
        object_ (DownloadLinkObject):  Default: 'download_link'.
        pass_id (str):
        revoked_at (datetime.datetime | None):
        url (str | Unset): only in the response that creates the link
    """

    created_at: datetime.datetime
    expires_at: datetime.datetime
    id: str
    pass_id: str
    revoked_at: datetime.datetime | None
    object_: DownloadLinkObject = "download_link"
    url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        id = self.id

        object_: str = self.object_

        pass_id = self.pass_id

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "createdAt": created_at,
                "expiresAt": expires_at,
                "id": id,
                "object": object_,
                "passId": pass_id,
                "revokedAt": revoked_at,
            }
        )
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        id = d.pop("id")

        object_ = check_download_link_object(d.pop("object"))

        pass_id = d.pop("passId")

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revokedAt"))

        url = d.pop("url", UNSET)

        download_link = cls(
            created_at=created_at,
            expires_at=expires_at,
            id=id,
            object_=object_,
            pass_id=pass_id,
            revoked_at=revoked_at,
            url=url,
        )

        return download_link
