from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.balance_transaction_result_pass_last_email_type_0_locale import (
    BalanceTransactionResultPassLastEmailType0Locale,
    check_balance_transaction_result_pass_last_email_type_0_locale,
)
from ..models.balance_transaction_result_pass_last_email_type_0_object import (
    BalanceTransactionResultPassLastEmailType0Object,
    check_balance_transaction_result_pass_last_email_type_0_object,
)
from ..models.balance_transaction_result_pass_last_email_type_0_status import (
    BalanceTransactionResultPassLastEmailType0Status,
    check_balance_transaction_result_pass_last_email_type_0_status,
)

if TYPE_CHECKING:
    from ..models.balance_transaction_result_pass_last_email_type_0_error_type_0 import (
        BalanceTransactionResultPassLastEmailType0ErrorType0,
    )


T = TypeVar("T", bound="BalanceTransactionResultPassLastEmailType0")


@_attrs_define
class BalanceTransactionResultPassLastEmailType0:
    """the newest email of the pass, or null; omitted from list results

    Attributes:
        created_at (datetime.datetime):
        error (BalanceTransactionResultPassLastEmailType0ErrorType0 | None): why the last attempt failed (while queued:
            it is retried): `code` (smtp_rejected, smtp_temporary, connection_failed, timeout, authentication_failed,
            starttls_unavailable, tls_failed, pass_voided, email_not_configured) and `message` (the server's answer)
        id (str):
        locale (BalanceTransactionResultPassLastEmailType0Locale):
        object_ (BalanceTransactionResultPassLastEmailType0Object):  Default: 'email'.
        pass_id (str):
        sent_at (datetime.datetime | None):
        status (BalanceTransactionResultPassLastEmailType0Status): queued until the SMTP server accepts it (sent) or
            refuses it for good (failed); transient failures are retried for about 42 minutes
        to (str):
    """

    created_at: datetime.datetime
    error: BalanceTransactionResultPassLastEmailType0ErrorType0 | None
    id: str
    locale: BalanceTransactionResultPassLastEmailType0Locale
    pass_id: str
    sent_at: datetime.datetime | None
    status: BalanceTransactionResultPassLastEmailType0Status
    to: str
    object_: BalanceTransactionResultPassLastEmailType0Object = "email"

    def to_dict(self) -> dict[str, Any]:
        from ..models.balance_transaction_result_pass_last_email_type_0_error_type_0 import (
            BalanceTransactionResultPassLastEmailType0ErrorType0,
        )

        created_at = self.created_at.isoformat()

        error: dict[str, Any] | None
        if isinstance(self.error, BalanceTransactionResultPassLastEmailType0ErrorType0):
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
        from ..models.balance_transaction_result_pass_last_email_type_0_error_type_0 import (
            BalanceTransactionResultPassLastEmailType0ErrorType0,
        )

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_error(
            data: object,
        ) -> BalanceTransactionResultPassLastEmailType0ErrorType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = (
                    BalanceTransactionResultPassLastEmailType0ErrorType0.from_dict(data)
                )

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                BalanceTransactionResultPassLastEmailType0ErrorType0 | None, data
            )

        error = _parse_error(d.pop("error"))

        id = d.pop("id")

        locale = check_balance_transaction_result_pass_last_email_type_0_locale(
            d.pop("locale")
        )

        object_ = check_balance_transaction_result_pass_last_email_type_0_object(
            d.pop("object")
        )

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

        status = check_balance_transaction_result_pass_last_email_type_0_status(
            d.pop("status")
        )

        to = d.pop("to")

        balance_transaction_result_pass_last_email_type_0 = cls(
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

        return balance_transaction_result_pass_last_email_type_0
