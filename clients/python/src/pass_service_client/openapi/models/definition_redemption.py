from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.definition_redemption_mode import (
    DefinitionRedemptionMode,
    check_definition_redemption_mode,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="DefinitionRedemption")


@_attrs_define
class DefinitionRedemption:
    """check-in (POST /v1/passes/{id}/redemptions, POST /v1/scans)

    Attributes:
        mode (DefinitionRedemptionMode): none (the default): no check-in; single: once (tickets, coupons); multiple:
            several times
        max_uses (int | Unset): multiple only; absent: no limit
        void_on_redemption (bool | Unset): single only: void the pass when it is redeemed
    """

    mode: DefinitionRedemptionMode
    max_uses: int | Unset = UNSET
    void_on_redemption: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        mode: str = self.mode

        max_uses = self.max_uses

        void_on_redemption = self.void_on_redemption

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mode": mode,
            }
        )
        if max_uses is not UNSET:
            field_dict["maxUses"] = max_uses
        if void_on_redemption is not UNSET:
            field_dict["voidOnRedemption"] = void_on_redemption

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        mode = check_definition_redemption_mode(d.pop("mode"))

        max_uses = d.pop("maxUses", UNSET)

        void_on_redemption = d.pop("voidOnRedemption", UNSET)

        definition_redemption = cls(
            mode=mode,
            max_uses=max_uses,
            void_on_redemption=void_on_redemption,
        )

        return definition_redemption
