from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.wallet_rates import WalletRates


T = TypeVar("T", bound="AllRates")


@_attrs_define
class AllRates:
    """
    Attributes:
        by_platform (WalletRates):
        install_rate (float | None): added / issued; null when 0 issued
        removal_rate (float | None): removed / added
        update_delivery_rate (float | None): updatesDelivered / updatesSent
    """

    by_platform: WalletRates
    install_rate: float | None
    removal_rate: float | None
    update_delivery_rate: float | None

    def to_dict(self) -> dict[str, Any]:
        by_platform = self.by_platform.to_dict()

        install_rate: float | None
        install_rate = self.install_rate

        removal_rate: float | None
        removal_rate = self.removal_rate

        update_delivery_rate: float | None
        update_delivery_rate = self.update_delivery_rate

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "byPlatform": by_platform,
                "installRate": install_rate,
                "removalRate": removal_rate,
                "updateDeliveryRate": update_delivery_rate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.wallet_rates import WalletRates

        d = dict(src_dict)
        by_platform = WalletRates.from_dict(d.pop("byPlatform"))

        def _parse_install_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        install_rate = _parse_install_rate(d.pop("installRate"))

        def _parse_removal_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        removal_rate = _parse_removal_rate(d.pop("removalRate"))

        def _parse_update_delivery_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        update_delivery_rate = _parse_update_delivery_rate(d.pop("updateDeliveryRate"))

        all_rates = cls(
            by_platform=by_platform,
            install_rate=install_rate,
            removal_rate=removal_rate,
            update_delivery_rate=update_delivery_rate,
        )

        return all_rates
