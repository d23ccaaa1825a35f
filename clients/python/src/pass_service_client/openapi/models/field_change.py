from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FieldChange")


@_attrs_define
class FieldChange:
    """
    Attributes:
        from_ (None | str):
        key (str):
        to (None | str):
        label (None | str | Unset):
    """

    from_: None | str
    key: str
    to: None | str
    label: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from_: None | str
        from_ = self.from_

        key = self.key

        to: None | str
        to = self.to

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "key": key,
                "to": to,
            }
        )
        if label is not UNSET:
            field_dict["label"] = label

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_from_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_ = _parse_from_(d.pop("from"))

        key = d.pop("key")

        def _parse_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        to = _parse_to(d.pop("to"))

        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        field_change = cls(
            from_=from_,
            key=key,
            to=to,
            label=label,
        )

        return field_change
