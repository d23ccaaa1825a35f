from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.message_audience import MessageAudience


T = TypeVar("T", bound="MessageCreate")


@_attrs_define
class MessageCreate:
    """
    Attributes:
        audience (MessageAudience):
        body (str): the text
        header (str): the title (Apple: the back field's label and the lock screen's prefix; Google: the message's
            header)
        send_at (datetime.datetime | Unset): when to send (ISO 8601 with an offset), up to 90 days ahead; left out, or
            up to 5 minutes past: now
    """

    audience: MessageAudience
    body: str
    header: str
    send_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        audience = self.audience.to_dict()

        body = self.body

        header = self.header

        send_at: str | Unset = UNSET
        if not isinstance(self.send_at, Unset):
            send_at = self.send_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "audience": audience,
                "body": body,
                "header": header,
            }
        )
        if send_at is not UNSET:
            field_dict["sendAt"] = send_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_audience import MessageAudience

        d = dict(src_dict)
        audience = MessageAudience.from_dict(d.pop("audience"))

        body = d.pop("body")

        header = d.pop("header")

        _send_at = d.pop("sendAt", UNSET)
        send_at: datetime.datetime | Unset
        if isinstance(_send_at, Unset):
            send_at = UNSET
        else:
            send_at = datetime.datetime.fromisoformat(_send_at)

        message_create = cls(
            audience=audience,
            body=body,
            header=header,
            send_at=send_at,
        )

        return message_create
