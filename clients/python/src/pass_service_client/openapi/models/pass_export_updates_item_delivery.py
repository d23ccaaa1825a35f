from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.pass_export_updates_item_delivery_apple import (
        PassExportUpdatesItemDeliveryApple,
    )
    from ..models.pass_export_updates_item_delivery_google import (
        PassExportUpdatesItemDeliveryGoogle,
    )


T = TypeVar("T", bound="PassExportUpdatesItemDelivery")


@_attrs_define
class PassExportUpdatesItemDelivery:
    """
    Attributes:
        apple (PassExportUpdatesItemDeliveryApple):
        google (PassExportUpdatesItemDeliveryGoogle):
    """

    apple: PassExportUpdatesItemDeliveryApple
    google: PassExportUpdatesItemDeliveryGoogle

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
        from ..models.pass_export_updates_item_delivery_apple import (
            PassExportUpdatesItemDeliveryApple,
        )
        from ..models.pass_export_updates_item_delivery_google import (
            PassExportUpdatesItemDeliveryGoogle,
        )

        d = dict(src_dict)
        apple = PassExportUpdatesItemDeliveryApple.from_dict(d.pop("apple"))

        google = PassExportUpdatesItemDeliveryGoogle.from_dict(d.pop("google"))

        pass_export_updates_item_delivery = cls(
            apple=apple,
            google=google,
        )

        return pass_export_updates_item_delivery
