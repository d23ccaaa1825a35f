from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.pass_with_update_update_delivery_apple import (
        PassWithUpdateUpdateDeliveryApple,
    )
    from ..models.pass_with_update_update_delivery_google import (
        PassWithUpdateUpdateDeliveryGoogle,
    )


T = TypeVar("T", bound="PassWithUpdateUpdateDelivery")


@_attrs_define
class PassWithUpdateUpdateDelivery:
    """
    Attributes:
        apple (PassWithUpdateUpdateDeliveryApple):
        google (PassWithUpdateUpdateDeliveryGoogle):
    """

    apple: PassWithUpdateUpdateDeliveryApple
    google: PassWithUpdateUpdateDeliveryGoogle

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
        from ..models.pass_with_update_update_delivery_apple import (
            PassWithUpdateUpdateDeliveryApple,
        )
        from ..models.pass_with_update_update_delivery_google import (
            PassWithUpdateUpdateDeliveryGoogle,
        )

        d = dict(src_dict)
        apple = PassWithUpdateUpdateDeliveryApple.from_dict(d.pop("apple"))

        google = PassWithUpdateUpdateDeliveryGoogle.from_dict(d.pop("google"))

        pass_with_update_update_delivery = cls(
            apple=apple,
            google=google,
        )

        return pass_with_update_update_delivery
