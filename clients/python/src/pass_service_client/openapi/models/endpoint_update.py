from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.endpoint_update_status import (
    EndpointUpdateStatus,
    check_endpoint_update_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="EndpointUpdate")


@_attrs_define
class EndpointUpdate:
    """
    Attributes:
        description (None | str | Unset): null clears
        enabled_events (list[str] | Unset): event types, or ["*"] for all
        status (EndpointUpdateStatus | Unset): enabling clears the failing streak
        url (str | Unset): https in live
    """

    description: None | str | Unset = UNSET
    enabled_events: list[str] | Unset = UNSET
    status: EndpointUpdateStatus | Unset = UNSET
    url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled_events: list[str] | Unset = UNSET
        if not isinstance(self.enabled_events, Unset):
            enabled_events = self.enabled_events

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if enabled_events is not UNSET:
            field_dict["enabledEvents"] = enabled_events
        if status is not UNSET:
            field_dict["status"] = status
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        enabled_events = cast(list[str], d.pop("enabledEvents", UNSET))

        _status = d.pop("status", UNSET)
        status: EndpointUpdateStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = check_endpoint_update_status(_status)

        url = d.pop("url", UNSET)

        endpoint_update = cls(
            description=description,
            enabled_events=enabled_events,
            status=status,
            url=url,
        )

        return endpoint_update
