from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.pass_export_events_item_environment import (
    PassExportEventsItemEnvironment,
    check_pass_export_events_item_environment,
)
from ..models.pass_export_events_item_object import (
    PassExportEventsItemObject,
    check_pass_export_events_item_object,
)
from ..models.pass_export_events_item_type import (
    PassExportEventsItemType,
    check_pass_export_events_item_type,
)

if TYPE_CHECKING:
    from ..models.pass_export_events_item_data import PassExportEventsItemData


T = TypeVar("T", bound="PassExportEventsItem")


@_attrs_define
class PassExportEventsItem:
    """
    Attributes:
        created_at (datetime.datetime):
        data (PassExportEventsItemData): object: the pass as in list results (the pass update for pass_update.delivered,
            the email for pass.email_sent and pass.email_failed, the endpoint as {object, id, url} for
            webhook_endpoint.test, the event a dashboard user sends to one endpoint to try it); wallet: {platform,
            installations} on pass.added_to_wallet and pass.removed_from_wallet; redemption: the redemption on
            pass.redeemed; balanceTransaction: the balance transaction on pass.balance_changed; tier: {from, to} (tier
            names, null for none) on pass.tier_changed; object: the bulk job (as GET /v1/bulk-jobs/{id} answers it) on
            bulk_job.completed
        environment (PassExportEventsItemEnvironment):
        id (str):
        object_ (PassExportEventsItemObject):  Default: 'event'.
        type_ (PassExportEventsItemType):
    """

    created_at: datetime.datetime
    data: PassExportEventsItemData
    environment: PassExportEventsItemEnvironment
    id: str
    type_: PassExportEventsItemType
    object_: PassExportEventsItemObject = "event"

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        environment: str = self.environment

        id = self.id

        object_: str = self.object_

        type_: str = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "createdAt": created_at,
                "data": data,
                "environment": environment,
                "id": id,
                "object": object_,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pass_export_events_item_data import PassExportEventsItemData

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = PassExportEventsItemData.from_dict(d.pop("data"))

        environment = check_pass_export_events_item_environment(d.pop("environment"))

        id = d.pop("id")

        object_ = check_pass_export_events_item_object(d.pop("object"))

        type_ = check_pass_export_events_item_type(d.pop("type"))

        pass_export_events_item = cls(
            created_at=created_at,
            data=data,
            environment=environment,
            id=id,
            object_=object_,
            type_=type_,
        )

        return pass_export_events_item
