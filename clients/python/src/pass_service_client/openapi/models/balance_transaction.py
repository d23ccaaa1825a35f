from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.balance_transaction_object import (
    BalanceTransactionObject,
    check_balance_transaction_object,
)
from ..models.balance_transaction_source import (
    BalanceTransactionSource,
    check_balance_transaction_source,
)

T = TypeVar("T", bound="BalanceTransaction")


@_attrs_define
class BalanceTransaction:
    """
    Attributes:
        amount (int): points (loyalty) or minor units of the currency (gift_card: 1250 is 12.50 EUR); positive earns or
            loads, negative spends or charges; never 0
        balance_after (int): the pass's balance right after this transaction
        created_at (datetime.datetime):
        id (str):
        object_ (BalanceTransactionObject):  Default: 'balance_transaction'.
        pass_id (str):
        reason (None | str): as given; "opening balance" for the balance a pass was issued with
        reference (None | str):
        source (BalanceTransactionSource): api: this API; dashboard: the pass page; scanner: the dashboard's scanner;
            bulk: a bulk job or a CSV import
    """

    amount: int
    balance_after: int
    created_at: datetime.datetime
    id: str
    pass_id: str
    reason: None | str
    reference: None | str
    source: BalanceTransactionSource
    object_: BalanceTransactionObject = "balance_transaction"

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        balance_after = self.balance_after

        created_at = self.created_at.isoformat()

        id = self.id

        object_: str = self.object_

        pass_id = self.pass_id

        reason: None | str
        reason = self.reason

        reference: None | str
        reference = self.reference

        source: str = self.source

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "balanceAfter": balance_after,
                "createdAt": created_at,
                "id": id,
                "object": object_,
                "passId": pass_id,
                "reason": reason,
                "reference": reference,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        balance_after = d.pop("balanceAfter")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = d.pop("id")

        object_ = check_balance_transaction_object(d.pop("object"))

        pass_id = d.pop("passId")

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        def _parse_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference = _parse_reference(d.pop("reference"))

        source = check_balance_transaction_source(d.pop("source"))

        balance_transaction = cls(
            amount=amount,
            balance_after=balance_after,
            created_at=created_at,
            id=id,
            object_=object_,
            pass_id=pass_id,
            reason=reason,
            reference=reference,
            source=source,
        )

        return balance_transaction
