from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.pass_update_delivery_apple import PassUpdateDeliveryApple
    from ..models.pass_update_delivery_google import PassUpdateDeliveryGoogle


T = TypeVar("T", bound="PassUpdateDelivery")


@_attrs_define
class PassUpdateDelivery:
    """
    Attributes:
        apple (PassUpdateDeliveryApple):
        google (PassUpdateDeliveryGoogle):
    """

    apple: PassUpdateDeliveryApple
    google: PassUpdateDeliveryGoogle

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
        from ..models.pass_update_delivery_apple import PassUpdateDeliveryApple
        from ..models.pass_update_delivery_google import PassUpdateDeliveryGoogle

        d = dict(src_dict)
        apple = PassUpdateDeliveryApple.from_dict(d.pop("apple"))

        google = PassUpdateDeliveryGoogle.from_dict(d.pop("google"))

        pass_update_delivery = cls(
            apple=apple,
            google=google,
        )

        return pass_update_delivery
