from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.delivery_google_status import (
    DeliveryGoogleStatus,
    check_delivery_google_status,
)

if TYPE_CHECKING:
    from ..models.delivery_google_error_type_0 import DeliveryGoogleErrorType0


T = TypeVar("T", bound="DeliveryGoogle")


@_attrs_define
class DeliveryGoogle:
    """
    Attributes:
        error (DeliveryGoogleErrorType0 | None): why the delivery failed: `code`, and a `message`
        message (None | str):
        status (DeliveryGoogleStatus):
    """

    error: DeliveryGoogleErrorType0 | None
    message: None | str
    status: DeliveryGoogleStatus

    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_google_error_type_0 import DeliveryGoogleErrorType0

        error: dict[str, Any] | None
        if isinstance(self.error, DeliveryGoogleErrorType0):
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
        from ..models.delivery_google_error_type_0 import DeliveryGoogleErrorType0

        d = dict(src_dict)

        def _parse_error(data: object) -> DeliveryGoogleErrorType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = DeliveryGoogleErrorType0.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryGoogleErrorType0 | None, data)

        error = _parse_error(d.pop("error"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        status = check_delivery_google_status(d.pop("status"))

        delivery_google = cls(
            error=error,
            message=message,
            status=status,
        )

        return delivery_google
