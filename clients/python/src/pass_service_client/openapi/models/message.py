from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.message_object import MessageObject, check_message_object
from ..models.message_source import MessageSource, check_message_source
from ..models.message_status import MessageStatus, check_message_status

if TYPE_CHECKING:
    from ..models.message_audience import MessageAudience
    from ..models.message_delivery import MessageDelivery


T = TypeVar("T", bound="Message")


@_attrs_define
class Message:
    """
    Attributes:
        audience (MessageAudience):
        audience_size (int): passes the audience named when sending began (before: now)
        body (str):
        canceled_at (datetime.datetime | None):
        created_at (datetime.datetime):
        delivery (MessageDelivery):
        finished_at (datetime.datetime | None):
        header (str):
        id (str):
        object_ (MessageObject):  Default: 'message'.
        processed (int): passes of the audience handed the message so far
        send_at (datetime.datetime | None):
        source (MessageSource):
        started_at (datetime.datetime | None):
        status (MessageStatus):
        updated_at (datetime.datetime):
    """

    audience: MessageAudience
    audience_size: int
    body: str
    canceled_at: datetime.datetime | None
    created_at: datetime.datetime
    delivery: MessageDelivery
    finished_at: datetime.datetime | None
    header: str
    id: str
    processed: int
    send_at: datetime.datetime | None
    source: MessageSource
    started_at: datetime.datetime | None
    status: MessageStatus
    updated_at: datetime.datetime
    object_: MessageObject = "message"

    def to_dict(self) -> dict[str, Any]:
        audience = self.audience.to_dict()

        audience_size = self.audience_size

        body = self.body

        canceled_at: None | str
        if isinstance(self.canceled_at, datetime.datetime):
            canceled_at = self.canceled_at.isoformat()
        else:
            canceled_at = self.canceled_at

        created_at = self.created_at.isoformat()

        delivery = self.delivery.to_dict()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        header = self.header

        id = self.id

        object_: str = self.object_

        processed = self.processed

        send_at: None | str
        if isinstance(self.send_at, datetime.datetime):
            send_at = self.send_at.isoformat()
        else:
            send_at = self.send_at

        source: str = self.source

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status: str = self.status

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "audience": audience,
                "audienceSize": audience_size,
                "body": body,
                "canceledAt": canceled_at,
                "createdAt": created_at,
                "delivery": delivery,
                "finishedAt": finished_at,
                "header": header,
                "id": id,
                "object": object_,
                "processed": processed,
                "sendAt": send_at,
                "source": source,
                "startedAt": started_at,
                "status": status,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_audience import MessageAudience
        from ..models.message_delivery import MessageDelivery

        d = dict(src_dict)
        audience = MessageAudience.from_dict(d.pop("audience"))

        audience_size = d.pop("audienceSize")

        body = d.pop("body")

        def _parse_canceled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                canceled_at_type_0 = datetime.datetime.fromisoformat(data)

                return canceled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        canceled_at = _parse_canceled_at(d.pop("canceledAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        delivery = MessageDelivery.from_dict(d.pop("delivery"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finishedAt"))

        header = d.pop("header")

        id = d.pop("id")

        object_ = check_message_object(d.pop("object"))

        processed = d.pop("processed")

        def _parse_send_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                send_at_type_0 = datetime.datetime.fromisoformat(data)

                return send_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        send_at = _parse_send_at(d.pop("sendAt"))

        source = check_message_source(d.pop("source"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("startedAt"))

        status = check_message_status(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        message = cls(
            audience=audience,
            audience_size=audience_size,
            body=body,
            canceled_at=canceled_at,
            created_at=created_at,
            delivery=delivery,
            finished_at=finished_at,
            header=header,
            id=id,
            object_=object_,
            processed=processed,
            send_at=send_at,
            source=source,
            started_at=started_at,
            status=status,
            updated_at=updated_at,
        )

        return message
