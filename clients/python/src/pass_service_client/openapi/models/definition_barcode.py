from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.definition_barcode_format import (
    DefinitionBarcodeFormat,
    check_definition_barcode_format,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="DefinitionBarcode")


@_attrs_define
class DefinitionBarcode:
    """
    Attributes:
        format_ (DefinitionBarcodeFormat):
        alt_text (str | Unset):
        per_pass (bool | Unset):
        value (str | Unset): default {{shortId}}
    """

    format_: DefinitionBarcodeFormat
    alt_text: str | Unset = UNSET
    per_pass: bool | Unset = UNSET
    value: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        format_: str = self.format_

        alt_text = self.alt_text

        per_pass = self.per_pass

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
            }
        )
        if alt_text is not UNSET:
            field_dict["altText"] = alt_text
        if per_pass is not UNSET:
            field_dict["perPass"] = per_pass
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        format_ = check_definition_barcode_format(d.pop("format"))

        alt_text = d.pop("altText", UNSET)

        per_pass = d.pop("perPass", UNSET)

        value = d.pop("value", UNSET)

        definition_barcode = cls(
            format_=format_,
            alt_text=alt_text,
            per_pass=per_pass,
            value=value,
        )

        return definition_barcode
