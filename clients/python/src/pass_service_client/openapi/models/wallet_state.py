from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="WalletState")


@_attrs_define
class WalletState:
    """
    Attributes:
        ready (bool):
        reason (None | str): why the wallet file is not ready
    """

    ready: bool
    reason: None | str

    def to_dict(self) -> dict[str, Any]:
        ready = self.ready

        reason: None | str
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ready": ready,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ready = d.pop("ready")

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        wallet_state = cls(
            ready=ready,
            reason=reason,
        )

        return wallet_state
