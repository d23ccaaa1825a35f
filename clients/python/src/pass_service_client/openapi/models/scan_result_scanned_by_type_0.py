from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.scan_result_scanned_by_type_0_type import (
    ScanResultScannedByType0Type,
    check_scan_result_scanned_by_type_0_type,
)

T = TypeVar("T", bound="ScanResultScannedByType0")


@_attrs_define
class ScanResultScannedByType0:
    """who redeemed it: a staff user or an API key

    Attributes:
        id (str):
        name (None | str): the staff user's email, or the API key's name
        type_ (ScanResultScannedByType0Type):
    """

    id: str
    name: None | str
    type_: ScanResultScannedByType0Type

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name: None | str
        name = self.name

        type_: str = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        type_ = check_scan_result_scanned_by_type_0_type(d.pop("type"))

        scan_result_scanned_by_type_0 = cls(
            id=id,
            name=name,
            type_=type_,
        )

        return scan_result_scanned_by_type_0
