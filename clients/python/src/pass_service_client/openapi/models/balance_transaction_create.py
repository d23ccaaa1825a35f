from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.balance_transaction_create_notification_mode import (
    BalanceTransactionCreateNotificationMode,
    check_balance_transaction_create_notification_mode,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="BalanceTransactionCreate")


@_attrs_define
class BalanceTransactionCreate:
    """
    Attributes:
        amount (int): points (loyalty) or minor units of the currency (gift_card: 1250 is 12.50 EUR); positive earns or
            loads, negative spends or charges; never 0
        notification_mode (BalanceTransactionCreateNotificationMode | Unset): notify (the default): the holder's phone
            shows the change (Apple: the balance field's change message, like "Points: 150"); silent: the pass changes
            quietly Default: 'notify'.
        reason (None | str | Unset): why, in a few words; one line, at most 100 characters
        reference (None | str | Unset): your own reference (an order or till receipt); at most 200 characters
    """

    amount: int
    notification_mode: BalanceTransactionCreateNotificationMode | Unset = "notify"
    reason: None | str | Unset = UNSET
    reference: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        notification_mode: str | Unset = UNSET
        if not isinstance(self.notification_mode, Unset):
            notification_mode = self.notification_mode

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
            }
        )
        if notification_mode is not UNSET:
            field_dict["notificationMode"] = notification_mode
        if reason is not UNSET:
            field_dict["reason"] = reason
        if reference is not UNSET:
            field_dict["reference"] = reference

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        _notification_mode = d.pop("notificationMode", UNSET)
        notification_mode: BalanceTransactionCreateNotificationMode | Unset
        if isinstance(_notification_mode, Unset):
            notification_mode = UNSET
        else:
            notification_mode = check_balance_transaction_create_notification_mode(
                _notification_mode
            )

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        balance_transaction_create = cls(
            amount=amount,
            notification_mode=notification_mode,
            reason=reason,
            reference=reference,
        )

        return balance_transaction_create
