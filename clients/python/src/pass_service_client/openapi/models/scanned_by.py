from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.scanned_by_type import ScannedByType, check_scanned_by_type

T = TypeVar("T", bound="ScannedBy")


@_attrs_define
class ScannedBy:
    """
    Attributes:
        id (str):
        name (None | str): the staff user's email, or the API key's name
        type_ (ScannedByType):
    """

    id: str
    name: None | str
    type_: ScannedByType

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

        type_ = check_scanned_by_type(d.pop("type"))

        scanned_by = cls(
            id=id,
            name=name,
            type_=type_,
        )

        return scanned_by
