from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_endpoint_disabled_reason_type_0 import (
    WebhookEndpointDisabledReasonType0,
    check_webhook_endpoint_disabled_reason_type_0,
)
from ..models.webhook_endpoint_environment import (
    WebhookEndpointEnvironment,
    check_webhook_endpoint_environment,
)
from ..models.webhook_endpoint_object import (
    WebhookEndpointObject,
    check_webhook_endpoint_object,
)
from ..models.webhook_endpoint_status import (
    WebhookEndpointStatus,
    check_webhook_endpoint_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """
    Attributes:
        created_at (datetime.datetime):
        description (None | str):
        disabled_reason (None | WebhookEndpointDisabledReasonType0): failing: 3 days of failed deliveries
        enabled_events (list[str]): event types, or ["*"] for all
        environment (WebhookEndpointEnvironment):
        id (str):
        object_ (WebhookEndpointObject):  Default: 'webhook_endpoint'.
        status (WebhookEndpointStatus):
        updated_at (datetime.datetime):
        url (str):
        deleted (bool | Unset): true, only in the delete answer
        secret (str | Unset): only in the create and rotate answers
    """

    created_at: datetime.datetime
    description: None | str
    disabled_reason: None | WebhookEndpointDisabledReasonType0
    enabled_events: list[str]
    environment: WebhookEndpointEnvironment
    id: str
    status: WebhookEndpointStatus
    updated_at: datetime.datetime
    url: str
    object_: WebhookEndpointObject = "webhook_endpoint"
    deleted: bool | Unset = UNSET
    secret: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        disabled_reason: None | str
        if isinstance(self.disabled_reason, str):
            disabled_reason = self.disabled_reason
        else:
            disabled_reason = self.disabled_reason

        enabled_events = self.enabled_events

        environment: str = self.environment

        id = self.id

        object_: str = self.object_

        status: str = self.status

        updated_at = self.updated_at.isoformat()

        url = self.url

        deleted = self.deleted

        secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "createdAt": created_at,
                "description": description,
                "disabledReason": disabled_reason,
                "enabledEvents": enabled_events,
                "environment": environment,
                "id": id,
                "object": object_,
                "status": status,
                "updatedAt": updated_at,
                "url": url,
            }
        )
        if deleted is not UNSET:
            field_dict["deleted"] = deleted
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_disabled_reason(
            data: object,
        ) -> None | WebhookEndpointDisabledReasonType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_reason_type_0 = check_webhook_endpoint_disabled_reason_type_0(
                    data
                )

                return disabled_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WebhookEndpointDisabledReasonType0, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabledReason"))

        enabled_events = cast(list[str], d.pop("enabledEvents"))

        environment = check_webhook_endpoint_environment(d.pop("environment"))

        id = d.pop("id")

        object_ = check_webhook_endpoint_object(d.pop("object"))

        status = check_webhook_endpoint_status(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        url = d.pop("url")

        deleted = d.pop("deleted", UNSET)

        secret = d.pop("secret", UNSET)

        webhook_endpoint = cls(
            created_at=created_at,
            description=description,
            disabled_reason=disabled_reason,
            enabled_events=enabled_events,
            environment=environment,
            id=id,
            object_=object_,
            status=status,
            updated_at=updated_at,
            url=url,
            deleted=deleted,
            secret=secret,
        )

        return webhook_endpoint
