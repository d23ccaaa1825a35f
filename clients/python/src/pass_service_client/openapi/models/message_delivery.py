from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.message_wallet_delivery import MessageWalletDelivery


T = TypeVar("T", bound="MessageDelivery")


@_attrs_define
class MessageDelivery:
    """
    Attributes:
        apple (MessageWalletDelivery):
        google (MessageWalletDelivery):
    """

    apple: MessageWalletDelivery
    google: MessageWalletDelivery

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
        from ..models.message_wallet_delivery import MessageWalletDelivery

        d = dict(src_dict)
        apple = MessageWalletDelivery.from_dict(d.pop("apple"))

        google = MessageWalletDelivery.from_dict(d.pop("google"))

        message_delivery = cls(
            apple=apple,
            google=google,
        )

        return message_delivery
