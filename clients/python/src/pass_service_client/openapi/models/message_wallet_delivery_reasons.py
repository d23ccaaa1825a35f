from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MessageWalletDeliveryReasons")


@_attrs_define
class MessageWalletDeliveryReasons:
    """why passes were skipped, failed or not notified, by code: pass_voided, pass_not_found, not_issued_for_wallet,
    not_in_wallet (no device registered / nobody saved the pass), notification_quota_exceeded (Google: added without a
    notification), or a failure's error code

    """

    additional_properties: dict[str, int] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        message_wallet_delivery_reasons = cls()

        message_wallet_delivery_reasons.additional_properties = d
        return message_wallet_delivery_reasons

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> int:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: int) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
