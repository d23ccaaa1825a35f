from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Rates")


@_attrs_define
class Rates:
    """
    Attributes:
        install_rate (float | None): added / issued; null when 0 issued
        removal_rate (float | None): removed / added
        update_delivery_rate (float | None): updatesDelivered / updatesSent
    """

    install_rate: float | None
    removal_rate: float | None
    update_delivery_rate: float | None

    def to_dict(self) -> dict[str, Any]:
        install_rate: float | None
        install_rate = self.install_rate

        removal_rate: float | None
        removal_rate = self.removal_rate

        update_delivery_rate: float | None
        update_delivery_rate = self.update_delivery_rate

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "installRate": install_rate,
                "removalRate": removal_rate,
                "updateDeliveryRate": update_delivery_rate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

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

        rates = cls(
            install_rate=install_rate,
            removal_rate=removal_rate,
            update_delivery_rate=update_delivery_rate,
        )

        return rates
