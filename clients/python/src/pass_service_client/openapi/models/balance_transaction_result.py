from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.balance_transaction_result_object import (
    BalanceTransactionResultObject,
    check_balance_transaction_result_object,
)
from ..models.balance_transaction_result_source import (
    BalanceTransactionResultSource,
    check_balance_transaction_result_source,
)

if TYPE_CHECKING:
    from ..models.pass_ import Pass


T = TypeVar("T", bound="BalanceTransactionResult")


@_attrs_define
class BalanceTransactionResult:
    """
    Attributes:
        amount (int): points (loyalty) or minor units of the currency (gift_card: 1250 is 12.50 EUR); positive earns or
            loads, negative spends or charges; never 0
        balance_after (int): the pass's balance right after this transaction
        created_at (datetime.datetime):
        id (str):
        object_ (BalanceTransactionResultObject):  Default: 'balance_transaction'.
        pass_ (Pass):
        pass_id (str):
        reason (None | str): as given; "opening balance" for the balance a pass was issued with
        reference (None | str):
        source (BalanceTransactionResultSource): api: this API; dashboard: the pass page; scanner: the dashboard's
            scanner; bulk: a bulk job or a CSV import
    """

    amount: int
    balance_after: int
    created_at: datetime.datetime
    id: str
    pass_: Pass
    pass_id: str
    reason: None | str
    reference: None | str
    source: BalanceTransactionResultSource
    object_: BalanceTransactionResultObject = "balance_transaction"

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        balance_after = self.balance_after

        created_at = self.created_at.isoformat()

        id = self.id

        object_: str = self.object_

        pass_ = self.pass_.to_dict()

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
                "pass": pass_,
                "passId": pass_id,
                "reason": reason,
                "reference": reference,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pass_ import Pass

        d = dict(src_dict)
        amount = d.pop("amount")

        balance_after = d.pop("balanceAfter")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = d.pop("id")

        object_ = check_balance_transaction_result_object(d.pop("object"))

        pass_ = Pass.from_dict(d.pop("pass"))

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

        source = check_balance_transaction_result_source(d.pop("source"))

        balance_transaction_result = cls(
            amount=amount,
            balance_after=balance_after,
            created_at=created_at,
            id=id,
            object_=object_,
            pass_=pass_,
            pass_id=pass_id,
            reason=reason,
            reference=reference,
            source=source,
        )

        return balance_transaction_result
