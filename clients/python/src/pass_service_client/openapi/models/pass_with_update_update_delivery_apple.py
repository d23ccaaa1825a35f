from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pass_with_update_update_delivery_apple_status import (
    PassWithUpdateUpdateDeliveryAppleStatus,
    check_pass_with_update_update_delivery_apple_status,
)

if TYPE_CHECKING:
    from ..models.pass_with_update_update_delivery_apple_error_type_0 import (
        PassWithUpdateUpdateDeliveryAppleErrorType0,
    )


T = TypeVar("T", bound="PassWithUpdateUpdateDeliveryApple")


@_attrs_define
class PassWithUpdateUpdateDeliveryApple:
    """
    Attributes:
        devices (int):
        error (None | PassWithUpdateUpdateDeliveryAppleErrorType0): why the delivery failed: `code`, and a `message`
        status (PassWithUpdateUpdateDeliveryAppleStatus):
    """

    devices: int
    error: None | PassWithUpdateUpdateDeliveryAppleErrorType0
    status: PassWithUpdateUpdateDeliveryAppleStatus

    def to_dict(self) -> dict[str, Any]:
        from ..models.pass_with_update_update_delivery_apple_error_type_0 import (
            PassWithUpdateUpdateDeliveryAppleErrorType0,
        )

        devices = self.devices

        error: dict[str, Any] | None
        if isinstance(self.error, PassWithUpdateUpdateDeliveryAppleErrorType0):
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
        from ..models.pass_with_update_update_delivery_apple_error_type_0 import (
            PassWithUpdateUpdateDeliveryAppleErrorType0,
        )

        d = dict(src_dict)
        devices = d.pop("devices")

        def _parse_error(
            data: object,
        ) -> None | PassWithUpdateUpdateDeliveryAppleErrorType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = PassWithUpdateUpdateDeliveryAppleErrorType0.from_dict(
                    data
                )

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PassWithUpdateUpdateDeliveryAppleErrorType0, data)

        error = _parse_error(d.pop("error"))

        status = check_pass_with_update_update_delivery_apple_status(d.pop("status"))

        pass_with_update_update_delivery_apple = cls(
            devices=devices,
            error=error,
            status=status,
        )

        return pass_with_update_update_delivery_apple
