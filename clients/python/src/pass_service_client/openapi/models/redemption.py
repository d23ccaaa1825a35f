from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.redemption_object import RedemptionObject, check_redemption_object
from ..models.redemption_source import RedemptionSource, check_redemption_source

if TYPE_CHECKING:
    from ..models.scanned_by import ScannedBy


T = TypeVar("T", bound="Redemption")


@_attrs_define
class Redemption:
    """
    Attributes:
        id (str):
        location (None | str): where it happened, e.g. a gate; at most 100 characters
        object_ (RedemptionObject):  Default: 'redemption'.
        pass_id (str):
        redeemed_at (datetime.datetime):
        scanned_by (None | ScannedBy): who redeemed it: a staff user or an API key
        source (RedemptionSource): api: this API; scanner: the dashboard's scanner page
    """

    id: str
    location: None | str
    pass_id: str
    redeemed_at: datetime.datetime
    scanned_by: None | ScannedBy
    source: RedemptionSource
    object_: RedemptionObject = "redemption"

    def to_dict(self) -> dict[str, Any]:
        from ..models.scanned_by import ScannedBy

        id = self.id

        location: None | str
        location = self.location

        object_: str = self.object_

        pass_id = self.pass_id

        redeemed_at = self.redeemed_at.isoformat()

        scanned_by: dict[str, Any] | None
        if isinstance(self.scanned_by, ScannedBy):
            scanned_by = self.scanned_by.to_dict()
        else:
            scanned_by = self.scanned_by

        source: str = self.source

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "location": location,
                "object": object_,
                "passId": pass_id,
                "redeemedAt": redeemed_at,
                "scannedBy": scanned_by,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scanned_by import ScannedBy

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_location(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        location = _parse_location(d.pop("location"))

        object_ = check_redemption_object(d.pop("object"))

        pass_id = d.pop("passId")

        redeemed_at = datetime.datetime.fromisoformat(d.pop("redeemedAt"))

        def _parse_scanned_by(data: object) -> None | ScannedBy:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                scanned_by_type_0 = ScannedBy.from_dict(data)

                return scanned_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScannedBy, data)

        scanned_by = _parse_scanned_by(d.pop("scannedBy"))

        source = check_redemption_source(d.pop("source"))

        redemption = cls(
            id=id,
            location=location,
            object_=object_,
            pass_id=pass_id,
            redeemed_at=redeemed_at,
            scanned_by=scanned_by,
            source=source,
        )

        return redemption
