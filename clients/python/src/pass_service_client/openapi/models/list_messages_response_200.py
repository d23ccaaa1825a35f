from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.message import Message


T = TypeVar("T", bound="ListMessagesResponse200")


@_attrs_define
class ListMessagesResponse200:
    """
    Attributes:
        data (list[Message]):
        has_more (bool):
        next_cursor (None | str):
        object_ (Literal['list']):
    """

    data: list[Message]
    has_more: bool
    next_cursor: None | str
    object_: Literal["list"]

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        has_more = self.has_more

        next_cursor: None | str
        next_cursor = self.next_cursor

        object_ = self.object_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "hasMore": has_more,
                "nextCursor": next_cursor,
                "object": object_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message import Message

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Message.from_dict(data_item_data)

            data.append(data_item)

        has_more = d.pop("hasMore")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor"))

        object_ = cast(Literal["list"], d.pop("object"))
        if object_ != "list":
            raise ValueError(f"object must match const 'list', got '{object_}'")

        list_messages_response_200 = cls(
            data=data,
            has_more=has_more,
            next_cursor=next_cursor,
            object_=object_,
        )

        return list_messages_response_200
