from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EventData")


@_attrs_define
class EventData:
    """object: the pass as in list results (the pass update for pass_update.delivered, the email for pass.email_sent and
    pass.email_failed, the endpoint as {object, id, url} for webhook_endpoint.test, the event a dashboard user sends to
    one endpoint to try it); wallet: {platform, installations} on pass.added_to_wallet and pass.removed_from_wallet;
    redemption: the redemption on pass.redeemed; balanceTransaction: the balance transaction on pass.balance_changed;
    tier: {from, to} (tier names, null for none) on pass.tier_changed; object: the bulk job (as GET /v1/bulk-jobs/{id}
    answers it) on bulk_job.completed

    """

    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_data = cls()

        event_data.additional_properties = d
        return event_data

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
