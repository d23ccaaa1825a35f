from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pass_update_kind import PassUpdateKind, check_pass_update_kind
from ..models.pass_update_notification_mode import (
    PassUpdateNotificationMode,
    check_pass_update_notification_mode,
)
from ..models.pass_update_object import PassUpdateObject, check_pass_update_object

if TYPE_CHECKING:
    from ..models.changes import Changes
    from ..models.delivery import Delivery


T = TypeVar("T", bound="PassUpdate")


@_attrs_define
class PassUpdate:
    """
    Attributes:
        changes (Changes):
        created_at (datetime.datetime):
        delivery (Delivery):
        id (str):
        kind (PassUpdateKind): erase: the holder's data was erased (POST /v1/passes/{id}/erase); message: a message to
            holders reached the pass (messageId)
        message_id (None | str): kind message: the message (POST /v1/messages)
        notification_mode (PassUpdateNotificationMode):
        object_ (PassUpdateObject):  Default: 'pass_update'.
        pass_id (str):
        wallet_changed (bool):
    """

    changes: Changes
    created_at: datetime.datetime
    delivery: Delivery
    id: str
    kind: PassUpdateKind
    message_id: None | str
    notification_mode: PassUpdateNotificationMode
    pass_id: str
    wallet_changed: bool
    object_: PassUpdateObject = "pass_update"

    def to_dict(self) -> dict[str, Any]:
        changes = self.changes.to_dict()

        created_at = self.created_at.isoformat()

        delivery = self.delivery.to_dict()

        id = self.id

        kind: str = self.kind

        message_id: None | str
        message_id = self.message_id

        notification_mode: str = self.notification_mode

        object_: str = self.object_

        pass_id = self.pass_id

        wallet_changed = self.wallet_changed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "changes": changes,
                "createdAt": created_at,
                "delivery": delivery,
                "id": id,
                "kind": kind,
                "messageId": message_id,
                "notificationMode": notification_mode,
                "object": object_,
                "passId": pass_id,
                "walletChanged": wallet_changed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.changes import Changes
        from ..models.delivery import Delivery

        d = dict(src_dict)
        changes = Changes.from_dict(d.pop("changes"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        delivery = Delivery.from_dict(d.pop("delivery"))

        id = d.pop("id")

        kind = check_pass_update_kind(d.pop("kind"))

        def _parse_message_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message_id = _parse_message_id(d.pop("messageId"))

        notification_mode = check_pass_update_notification_mode(
            d.pop("notificationMode")
        )

        object_ = check_pass_update_object(d.pop("object"))

        pass_id = d.pop("passId")

        wallet_changed = d.pop("walletChanged")

        pass_update = cls(
            changes=changes,
            created_at=created_at,
            delivery=delivery,
            id=id,
            kind=kind,
            message_id=message_id,
            notification_mode=notification_mode,
            object_=object_,
            pass_id=pass_id,
            wallet_changed=wallet_changed,
        )

        return pass_update
