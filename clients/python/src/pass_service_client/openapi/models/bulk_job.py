from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.bulk_job_environment import BulkJobEnvironment, check_bulk_job_environment
from ..models.bulk_job_notification_mode_type_0 import (
    BulkJobNotificationModeType0,
    check_bulk_job_notification_mode_type_0,
)
from ..models.bulk_job_object import BulkJobObject, check_bulk_job_object
from ..models.bulk_job_operation import BulkJobOperation, check_bulk_job_operation
from ..models.bulk_job_status import BulkJobStatus, check_bulk_job_status

if TYPE_CHECKING:
    from ..models.bulk_job_counts import BulkJobCounts


T = TypeVar("T", bound="BulkJob")


@_attrs_define
class BulkJob:
    """
    Attributes:
        counts (BulkJobCounts):
        created_at (datetime.datetime):
        environment (BulkJobEnvironment):
        finished_at (datetime.datetime | None):
        id (str):
        notification_mode (BulkJobNotificationModeType0 | None):
        object_ (BulkJobObject):  Default: 'bulk_job'.
        operation (BulkJobOperation):
        started_at (datetime.datetime | None):
        status (BulkJobStatus):
        template_id (None | str):
        to_revision (int | None):
    """

    counts: BulkJobCounts
    created_at: datetime.datetime
    environment: BulkJobEnvironment
    finished_at: datetime.datetime | None
    id: str
    notification_mode: BulkJobNotificationModeType0 | None
    operation: BulkJobOperation
    started_at: datetime.datetime | None
    status: BulkJobStatus
    template_id: None | str
    to_revision: int | None
    object_: BulkJobObject = "bulk_job"

    def to_dict(self) -> dict[str, Any]:
        counts = self.counts.to_dict()

        created_at = self.created_at.isoformat()

        environment: str = self.environment

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = self.id

        notification_mode: None | str
        if isinstance(self.notification_mode, str):
            notification_mode = self.notification_mode
        else:
            notification_mode = self.notification_mode

        object_: str = self.object_

        operation: str = self.operation

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status: str = self.status

        template_id: None | str
        template_id = self.template_id

        to_revision: int | None
        to_revision = self.to_revision

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "counts": counts,
                "createdAt": created_at,
                "environment": environment,
                "finishedAt": finished_at,
                "id": id,
                "notificationMode": notification_mode,
                "object": object_,
                "operation": operation,
                "startedAt": started_at,
                "status": status,
                "templateId": template_id,
                "toRevision": to_revision,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bulk_job_counts import BulkJobCounts

        d = dict(src_dict)
        counts = BulkJobCounts.from_dict(d.pop("counts"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        environment = check_bulk_job_environment(d.pop("environment"))

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

        id = d.pop("id")

        def _parse_notification_mode(
            data: object,
        ) -> BulkJobNotificationModeType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                notification_mode_type_0 = check_bulk_job_notification_mode_type_0(data)

                return notification_mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BulkJobNotificationModeType0 | None, data)

        notification_mode = _parse_notification_mode(d.pop("notificationMode"))

        object_ = check_bulk_job_object(d.pop("object"))

        operation = check_bulk_job_operation(d.pop("operation"))

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

        status = check_bulk_job_status(d.pop("status"))

        def _parse_template_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        template_id = _parse_template_id(d.pop("templateId"))

        def _parse_to_revision(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        to_revision = _parse_to_revision(d.pop("toRevision"))

        bulk_job = cls(
            counts=counts,
            created_at=created_at,
            environment=environment,
            finished_at=finished_at,
            id=id,
            notification_mode=notification_mode,
            object_=object_,
            operation=operation,
            started_at=started_at,
            status=status,
            template_id=template_id,
            to_revision=to_revision,
        )

        return bulk_job
