from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.delivery_apple_status import (
    DeliveryAppleStatus,
    check_delivery_apple_status,
)

if TYPE_CHECKING:
    from ..models.delivery_apple_error_type_0 import DeliveryAppleErrorType0


T = TypeVar("T", bound="DeliveryApple")


@_attrs_define
class DeliveryApple:
    """
    Attributes:
        devices (int):
        error (DeliveryAppleErrorType0 | None): why the delivery failed: `code`, and a `message`
        status (DeliveryAppleStatus):
    """

    devices: int
    error: DeliveryAppleErrorType0 | None
    status: DeliveryAppleStatus

    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_apple_error_type_0 import DeliveryAppleErrorType0

        devices = self.devices

        error: dict[str, Any] | None
        if isinstance(self.error, DeliveryAppleErrorType0):
            error = self.error.to_dict()
        else:
            error = self.error

        status: str = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "devices": devices,
                "error": error,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_apple_error_type_0 import DeliveryAppleErrorType0

        d = dict(src_dict)
        devices = d.pop("devices")

        def _parse_error(data: object) -> DeliveryAppleErrorType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = DeliveryAppleErrorType0.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryAppleErrorType0 | None, data)

        error = _parse_error(d.pop("error"))

        status = check_delivery_apple_status(d.pop("status"))

        delivery_apple = cls(
            devices=devices,
            error=error,
            status=status,
        )

        return delivery_apple
