from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pass_last_email_type_0_locale import (
    PassLastEmailType0Locale,
    check_pass_last_email_type_0_locale,
)
from ..models.pass_last_email_type_0_object import (
    PassLastEmailType0Object,
    check_pass_last_email_type_0_object,
)
from ..models.pass_last_email_type_0_status import (
    PassLastEmailType0Status,
    check_pass_last_email_type_0_status,
)

if TYPE_CHECKING:
    from ..models.pass_last_email_type_0_error_type_0 import (
        PassLastEmailType0ErrorType0,
    )


T = TypeVar("T", bound="PassLastEmailType0")


@_attrs_define
class PassLastEmailType0:
    """the newest email of the pass, or null; omitted from list results

    Attributes:
        created_at (datetime.datetime):
        error (None | PassLastEmailType0ErrorType0): why the last attempt failed (while queued: it is retried): `code`
            (smtp_rejected, smtp_temporary, connection_failed, timeout, authentication_failed, starttls_unavailable,
            tls_failed, pass_voided, email_not_configured) and `message` (the server's answer)
        id (str):
        locale (PassLastEmailType0Locale):
        object_ (PassLastEmailType0Object):  Default: 'email'.
        pass_id (str):
        sent_at (datetime.datetime | None):
        status (PassLastEmailType0Status): queued until the SMTP server accepts it (sent) or refuses it for good
            (failed); transient failures are retried for about 42 minutes
        to (str):
    """

    created_at: datetime.datetime
    error: None | PassLastEmailType0ErrorType0
    id: str
    locale: PassLastEmailType0Locale
    pass_id: str
    sent_at: datetime.datetime | None
    status: PassLastEmailType0Status
    to: str
    object_: PassLastEmailType0Object = "email"

    def to_dict(self) -> dict[str, Any]:
        from ..models.pass_last_email_type_0_error_type_0 import (
            PassLastEmailType0ErrorType0,
        )

        created_at = self.created_at.isoformat()

        error: dict[str, Any] | None
        if isinstance(self.error, PassLastEmailType0ErrorType0):
            error = self.error.to_dict()
        else:
            error = self.error

        id = self.id

        locale: str = self.locale

        object_: str = self.object_

        pass_id = self.pass_id

        sent_at: None | str
        if isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at

        status: str = self.status

        to = self.to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "createdAt": created_at,
                "error": error,
                "id": id,
                "locale": locale,
                "object": object_,
                "passId": pass_id,
                "sentAt": sent_at,
                "status": status,
                "to": to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pass_last_email_type_0_error_type_0 import (
            PassLastEmailType0ErrorType0,
        )

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_error(data: object) -> None | PassLastEmailType0ErrorType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = PassLastEmailType0ErrorType0.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PassLastEmailType0ErrorType0, data)

        error = _parse_error(d.pop("error"))

        id = d.pop("id")

        locale = check_pass_last_email_type_0_locale(d.pop("locale"))

        object_ = check_pass_last_email_type_0_object(d.pop("object"))

        pass_id = d.pop("passId")

        def _parse_sent_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        sent_at = _parse_sent_at(d.pop("sentAt"))

        status = check_pass_last_email_type_0_status(d.pop("status"))

        to = d.pop("to")

        pass_last_email_type_0 = cls(
            created_at=created_at,
            error=error,
            id=id,
            locale=locale,
            object_=object_,
            pass_id=pass_id,
            sent_at=sent_at,
            status=status,
            to=to,
        )

        return pass_last_email_type_0
