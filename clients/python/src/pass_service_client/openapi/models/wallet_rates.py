from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.rates import Rates


T = TypeVar("T", bound="WalletRates")


@_attrs_define
class WalletRates:
    """
    Attributes:
        apple (Rates):
        google (Rates):
    """

    apple: Rates
    google: Rates

    def to_dict(self) -> dict[str, Any]:
        apple = self.apple.to_dict()

        google = self.google.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "apple": apple,
                "google": google,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rates import Rates

        d = dict(src_dict)
        apple = Rates.from_dict(d.pop("apple"))

        google = Rates.from_dict(d.pop("google"))

        wallet_rates = cls(
            apple=apple,
            google=google,
        )

        return wallet_rates
