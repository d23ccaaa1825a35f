from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.message_wallet_delivery_reasons import MessageWalletDeliveryReasons


T = TypeVar("T", bound="MessageWalletDelivery")


@_attrs_define
class MessageWalletDelivery:
    """
    Attributes:
        delivered (int): Apple: APNs took the push; Google: added with a notification
        failed (int):
        pending (int):
        reasons (MessageWalletDeliveryReasons): why passes were skipped, failed or not notified, by code: pass_voided,
            pass_not_found, not_issued_for_wallet, not_in_wallet (no device registered / nobody saved the pass),
            notification_quota_exceeded (Google: added without a notification), or a failure's error code
        skipped (int):
        without_notification (int): Google: added as a plain message (the pass's 3 notifications per 24 hours were
            spent); Apple: always 0
    """

    delivered: int
    failed: int
    pending: int
    reasons: MessageWalletDeliveryReasons
    skipped: int
    without_notification: int

    def to_dict(self) -> dict[str, Any]:
        delivered = self.delivered

        failed = self.failed

        pending = self.pending

        reasons = self.reasons.to_dict()

        skipped = self.skipped

        without_notification = self.without_notification

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delivered": delivered,
                "failed": failed,
                "pending": pending,
                "reasons": reasons,
                "skipped": skipped,
                "withoutNotification": without_notification,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_wallet_delivery_reasons import (
            MessageWalletDeliveryReasons,
        )

        d = dict(src_dict)
        delivered = d.pop("delivered")

        failed = d.pop("failed")

        pending = d.pop("pending")

        reasons = MessageWalletDeliveryReasons.from_dict(d.pop("reasons"))

        skipped = d.pop("skipped")

        without_notification = d.pop("withoutNotification")

        message_wallet_delivery = cls(
            delivered=delivered,
            failed=failed,
            pending=pending,
            reasons=reasons,
            skipped=skipped,
            without_notification=without_notification,
        )

        return message_wallet_delivery
