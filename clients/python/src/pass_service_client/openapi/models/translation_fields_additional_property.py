from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TranslationFieldsAdditionalProperty")


@_attrs_define
class TranslationFieldsAdditionalProperty:
    """
    Attributes:
        change_message (str | Unset):
        label (str | Unset):
        value (str | Unset): shared text fields only
    """

    change_message: str | Unset = UNSET
    label: str | Unset = UNSET
    value: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        change_message = self.change_message

        label = self.label

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if change_message is not UNSET:
            field_dict["changeMessage"] = change_message
        if label is not UNSET:
            field_dict["label"] = label
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        change_message = d.pop("changeMessage", UNSET)

        label = d.pop("label", UNSET)

        value = d.pop("value", UNSET)

        translation_fields_additional_property = cls(
            change_message=change_message,
            label=label,
            value=value,
        )

        return translation_fields_additional_property
