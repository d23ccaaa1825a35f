from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DefinitionOffer")


@_attrs_define
class DefinitionOffer:
    """required on coupon templates, refused on others; a coupon's redemption defaults to {"mode": "single"}

    Attributes:
        provider (str): who gives the offer
        title (str):
        details (str | Unset):
        fine_print (str | Unset):
    """

    provider: str
    title: str
    details: str | Unset = UNSET
    fine_print: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider

        title = self.title

        details = self.details

        fine_print = self.fine_print

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "title": title,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details
        if fine_print is not UNSET:
            field_dict["finePrint"] = fine_print

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider = d.pop("provider")

        title = d.pop("title")

        details = d.pop("details", UNSET)

        fine_print = d.pop("finePrint", UNSET)

        definition_offer = cls(
            provider=provider,
            title=title,
            details=details,
            fine_print=fine_print,
        )

        return definition_offer
