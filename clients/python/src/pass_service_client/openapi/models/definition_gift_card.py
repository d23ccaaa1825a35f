from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.definition_gift_card_currency import (
    DefinitionGiftCardCurrency,
    check_definition_gift_card_currency,
)

T = TypeVar("T", bound="DefinitionGiftCard")


@_attrs_define
class DefinitionGiftCard:
    """required on gift_card templates, refused on others

    Attributes:
        currency (DefinitionGiftCardCurrency): ISO 4217; balances are kept in its minor units
    """

    currency: DefinitionGiftCardCurrency

    def to_dict(self) -> dict[str, Any]:
        currency: str = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        currency = check_definition_gift_card_currency(d.pop("currency"))

        definition_gift_card = cls(
            currency=currency,
        )

        return definition_gift_card
