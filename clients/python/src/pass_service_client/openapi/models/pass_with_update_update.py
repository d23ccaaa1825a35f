from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.pass_with_update_update_kind import (
    PassWithUpdateUpdateKind,
    check_pass_with_update_update_kind,
)
from ..models.pass_with_update_update_notification_mode import (
    PassWithUpdateUpdateNotificationMode,
    check_pass_with_update_update_notification_mode,
)
from ..models.pass_with_update_update_object import (
    PassWithUpdateUpdateObject,
    check_pass_with_update_update_object,
)

if TYPE_CHECKING:
    from ..models.pass_with_update_update_changes import PassWithUpdateUpdateChanges
    from ..models.pass_with_update_update_delivery import PassWithUpdateUpdateDelivery


T = TypeVar("T", bound="PassWithUpdateUpdate")


@_attrs_define
class PassWithUpdateUpdate:
    """
    Attributes:
        changes (PassWithUpdateUpdateChanges):
        created_at (datetime.datetime):
        delivery (PassWithUpdateUpdateDelivery):
        id (str):
        kind (PassWithUpdateUpdateKind): erase: the holder's data was erased (POST /v1/passes/{id}/erase)
        notification_mode (PassWithUpdateUpdateNotificationMode):
        object_ (PassWithUpdateUpdateObject):  Default: 'pass_update'.
        pass_id (str):
        wallet_changed (bool):
    """

    changes: PassWithUpdateUpdateChanges
    created_at: datetime.datetime
    delivery: PassWithUpdateUpdateDelivery
    id: str
    kind: PassWithUpdateUpdateKind
    notification_mode: PassWithUpdateUpdateNotificationMode
    pass_id: str
    wallet_changed: bool
    object_: PassWithUpdateUpdateObject = "pass_update"

    def to_dict(self) -> dict[str, Any]:
        changes = self.changes.to_dict()

        created_at = self.created_at.isoformat()

        delivery = self.delivery.to_dict()

        id = self.id

        kind: str = self.kind

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
                "notificationMode": notification_mode,
                "object": object_,
                "passId": pass_id,
                "walletChanged": wallet_changed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pass_with_update_update_changes import PassWithUpdateUpdateChanges
        from ..models.pass_with_update_update_delivery import (
            PassWithUpdateUpdateDelivery,
        )

        d = dict(src_dict)
        changes = PassWithUpdateUpdateChanges.from_dict(d.pop("changes"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        delivery = PassWithUpdateUpdateDelivery.from_dict(d.pop("delivery"))

        id = d.pop("id")

        kind = check_pass_with_update_update_kind(d.pop("kind"))

        notification_mode = check_pass_with_update_update_notification_mode(
            d.pop("notificationMode")
        )

        object_ = check_pass_with_update_update_object(d.pop("object"))

        pass_id = d.pop("passId")

        wallet_changed = d.pop("walletChanged")

        pass_with_update_update = cls(
            changes=changes,
            created_at=created_at,
            delivery=delivery,
            id=id,
            kind=kind,
            notification_mode=notification_mode,
            object_=object_,
            pass_id=pass_id,
            wallet_changed=wallet_changed,
        )

        return pass_with_update_update
