from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.field_binding import FieldBinding, check_field_binding
from ..models.field_format import FieldFormat, check_field_format
from ..types import UNSET, Unset

T = TypeVar("T", bound="Field")


@_attrs_define
class Field:
    """
    Attributes:
        binding (FieldBinding):
        key (str): unique across all groups
        label (str):
        change_message (str | Unset):
        format_ (FieldFormat | Unset):
        required (bool | Unset): only perPass fields can be required
        value (float | str | Unset): the fixed text of a shared field (required there)
    """

    binding: FieldBinding
    key: str
    label: str
    change_message: str | Unset = UNSET
    format_: FieldFormat | Unset = UNSET
    required: bool | Unset = UNSET
    value: float | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        binding: str = self.binding

        key = self.key

        label = self.label

        change_message = self.change_message

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_

        required = self.required

        value: float | str | Unset
        if isinstance(self.value, Unset):
            value = UNSET
        else:
            value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "binding": binding,
                "key": key,
                "label": label,
            }
        )
        if change_message is not UNSET:
            field_dict["changeMessage"] = change_message
        if format_ is not UNSET:
            field_dict["format"] = format_
        if required is not UNSET:
            field_dict["required"] = required
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        binding = check_field_binding(d.pop("binding"))

        key = d.pop("key")

        label = d.pop("label")

        change_message = d.pop("changeMessage", UNSET)

        _format_ = d.pop("format", UNSET)
        format_: FieldFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = check_field_format(_format_)

        required = d.pop("required", UNSET)

        def _parse_value(data: object) -> float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(float | str | Unset, data)

        value = _parse_value(d.pop("value", UNSET))

        field = cls(
            binding=binding,
            key=key,
            label=label,
            change_message=change_message,
            format_=format_,
            required=required,
            value=value,
        )

        return field
