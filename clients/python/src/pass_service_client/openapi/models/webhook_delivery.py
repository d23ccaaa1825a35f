from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_delivery_event_type import (
    WebhookDeliveryEventType,
    check_webhook_delivery_event_type,
)
from ..models.webhook_delivery_object import (
    WebhookDeliveryObject,
    check_webhook_delivery_object,
)
from ..models.webhook_delivery_status import (
    WebhookDeliveryStatus,
    check_webhook_delivery_status,
)

if TYPE_CHECKING:
    from ..models.attempt import Attempt


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """
    Attributes:
        attempts (list[Attempt]):
        created_at (datetime.datetime):
        endpoint_id (str):
        event_id (str):
        event_type (WebhookDeliveryEventType):
        failure_code (None | str): why it failed without an attempt, e.g. endpoint_disabled
        id (str):
        next_attempt_at (datetime.datetime | None):
        object_ (WebhookDeliveryObject):  Default: 'webhook_delivery'.
        status (WebhookDeliveryStatus):
        updated_at (datetime.datetime):
    """

    attempts: list[Attempt]
    created_at: datetime.datetime
    endpoint_id: str
    event_id: str
    event_type: WebhookDeliveryEventType
    failure_code: None | str
    id: str
    next_attempt_at: datetime.datetime | None
    status: WebhookDeliveryStatus
    updated_at: datetime.datetime
    object_: WebhookDeliveryObject = "webhook_delivery"

    def to_dict(self) -> dict[str, Any]:
        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        created_at = self.created_at.isoformat()

        endpoint_id = self.endpoint_id

        event_id = self.event_id

        event_type: str = self.event_type

        failure_code: None | str
        failure_code = self.failure_code

        id = self.id

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        object_: str = self.object_

        status: str = self.status

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempts": attempts,
                "createdAt": created_at,
                "endpointId": endpoint_id,
                "eventId": event_id,
                "eventType": event_type,
                "failureCode": failure_code,
                "id": id,
                "nextAttemptAt": next_attempt_at,
                "object": object_,
                "status": status,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attempt import Attempt

        d = dict(src_dict)
        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = Attempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        endpoint_id = d.pop("endpointId")

        event_id = d.pop("eventId")

        event_type = check_webhook_delivery_event_type(d.pop("eventType"))

        def _parse_failure_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure_code = _parse_failure_code(d.pop("failureCode"))

        id = d.pop("id")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        object_ = check_webhook_delivery_object(d.pop("object"))

        status = check_webhook_delivery_status(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        webhook_delivery = cls(
            attempts=attempts,
            created_at=created_at,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            failure_code=failure_code,
            id=id,
            next_attempt_at=next_attempt_at,
            object_=object_,
            status=status,
            updated_at=updated_at,
        )

        return webhook_delivery
