from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pass_update_delivery_google_status import (
    PassUpdateDeliveryGoogleStatus,
    check_pass_update_delivery_google_status,
)

if TYPE_CHECKING:
    from ..models.pass_update_delivery_google_error_type_0 import (
        PassUpdateDeliveryGoogleErrorType0,
    )


T = TypeVar("T", bound="PassUpdateDeliveryGoogle")


@_attrs_define
class PassUpdateDeliveryGoogle:
    """
    Attributes:
        error (None | PassUpdateDeliveryGoogleErrorType0): why the delivery failed: `code`, and a `message`
        message (None | str):
        status (PassUpdateDeliveryGoogleStatus):
    """

    error: None | PassUpdateDeliveryGoogleErrorType0
    message: None | str
    status: PassUpdateDeliveryGoogleStatus

    def to_dict(self) -> dict[str, Any]:
        from ..models.pass_update_delivery_google_error_type_0 import (
            PassUpdateDeliveryGoogleErrorType0,
        )

        error: dict[str, Any] | None
        if isinstance(self.error, PassUpdateDeliveryGoogleErrorType0):
            error = self.error.to_dict()
        else:
            error = self.error

        message: None | str
        message = self.message

        status: str = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "error": error,
                "message": message,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pass_update_delivery_google_error_type_0 import (
            PassUpdateDeliveryGoogleErrorType0,
        )

        d = dict(src_dict)

        def _parse_error(data: object) -> None | PassUpdateDeliveryGoogleErrorType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = PassUpdateDeliveryGoogleErrorType0.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PassUpdateDeliveryGoogleErrorType0, data)

        error = _parse_error(d.pop("error"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        status = check_pass_update_delivery_google_status(d.pop("status"))

        pass_update_delivery_google = cls(
            error=error,
            message=message,
            status=status,
        )

        return pass_update_delivery_google
