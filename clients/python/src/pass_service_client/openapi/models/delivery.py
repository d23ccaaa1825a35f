from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.delivery_apple import DeliveryApple
    from ..models.delivery_google import DeliveryGoogle


T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """
    Attributes:
        apple (DeliveryApple):
        google (DeliveryGoogle):
    """

    apple: DeliveryApple
    google: DeliveryGoogle

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
        from ..models.delivery_apple import DeliveryApple
        from ..models.delivery_google import DeliveryGoogle

        d = dict(src_dict)
        apple = DeliveryApple.from_dict(d.pop("apple"))

        google = DeliveryGoogle.from_dict(d.pop("google"))

        delivery = cls(
            apple=apple,
            google=google,
        )

        return delivery
