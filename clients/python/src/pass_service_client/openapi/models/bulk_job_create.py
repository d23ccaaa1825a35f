from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.bulk_job_create_notification_mode import (
    BulkJobCreateNotificationMode,
    check_bulk_job_create_notification_mode,
)
from ..models.bulk_job_create_operation import (
    BulkJobCreateOperation,
    check_bulk_job_create_operation,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.bulk_job_create_items_item import BulkJobCreateItemsItem


T = TypeVar("T", bound="BulkJobCreate")


@_attrs_define
class BulkJobCreate:
    """
    Attributes:
        operation (BulkJobCreateOperation):
        items (list[BulkJobCreateItemsItem] | Unset): issue: what POST /v1/passes takes (templateId may be left out)
            plus an optional externalId; update: passId plus what PATCH /v1/passes/{id} takes but notificationMode; void:
            passId; adjust_balance: passId or externalId (with the job's templateId), amount, reason, reference. At most
            10,000 items; each is checked when it runs, and a bad one fails alone (see the results).
        notification_mode (BulkJobCreateNotificationMode | Unset): update, upgrade and adjust_balance: silent (default)
            or notify the holders
        template_id (str | Unset): issue and upgrade: the template; adjust_balance: the template whose passes items name
            by externalId
        to_revision (int | Unset): upgrade: the revision to move the template's active passes to; default the latest
    """

    operation: BulkJobCreateOperation
    items: list[BulkJobCreateItemsItem] | Unset = UNSET
    notification_mode: BulkJobCreateNotificationMode | Unset = UNSET
    template_id: str | Unset = UNSET
    to_revision: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        operation: str = self.operation

        items: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.items, Unset):
            items = []
            for items_item_data in self.items:
                items_item = items_item_data.to_dict()
                items.append(items_item)

        notification_mode: str | Unset = UNSET
        if not isinstance(self.notification_mode, Unset):
            notification_mode = self.notification_mode

        template_id = self.template_id

        to_revision = self.to_revision

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "operation": operation,
            }
        )
        if items is not UNSET:
            field_dict["items"] = items
        if notification_mode is not UNSET:
            field_dict["notificationMode"] = notification_mode
        if template_id is not UNSET:
            field_dict["templateId"] = template_id
        if to_revision is not UNSET:
            field_dict["toRevision"] = to_revision

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bulk_job_create_items_item import BulkJobCreateItemsItem

        d = dict(src_dict)
        operation = check_bulk_job_create_operation(d.pop("operation"))

        _items = d.pop("items", UNSET)
        items: list[BulkJobCreateItemsItem] | Unset = UNSET
        if _items is not UNSET:
            items = []
            for items_item_data in _items:
                items_item = BulkJobCreateItemsItem.from_dict(items_item_data)

                items.append(items_item)

        _notification_mode = d.pop("notificationMode", UNSET)
        notification_mode: BulkJobCreateNotificationMode | Unset
        if isinstance(_notification_mode, Unset):
            notification_mode = UNSET
        else:
            notification_mode = check_bulk_job_create_notification_mode(
                _notification_mode
            )

        template_id = d.pop("templateId", UNSET)

        to_revision = d.pop("toRevision", UNSET)

        bulk_job_create = cls(
            operation=operation,
            items=items,
            notification_mode=notification_mode,
            template_id=template_id,
            to_revision=to_revision,
        )

        return bulk_job_create
