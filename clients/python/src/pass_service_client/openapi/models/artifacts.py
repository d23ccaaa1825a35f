from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.wallet_state import WalletState


T = TypeVar("T", bound="Artifacts")


@_attrs_define
class Artifacts:
    """
    Attributes:
        apple (WalletState):
        google (WalletState):
    """

    apple: WalletState
    google: WalletState

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
        from ..models.wallet_state import WalletState

        d = dict(src_dict)
        apple = WalletState.from_dict(d.pop("apple"))

        google = WalletState.from_dict(d.pop("google"))

        artifacts = cls(
            apple=apple,
            google=google,
        )

        return artifacts
