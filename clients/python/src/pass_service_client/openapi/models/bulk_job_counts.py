from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BulkJobCounts")


@_attrs_define
class BulkJobCounts:
    """
    Attributes:
        canceled (int):
        failed (int):
        pending (int):
        succeeded (int):
        total (int):
    """

    canceled: int
    failed: int
    pending: int
    succeeded: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        canceled = self.canceled

        failed = self.failed

        pending = self.pending

        succeeded = self.succeeded

        total = self.total

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "canceled": canceled,
                "failed": failed,
                "pending": pending,
                "succeeded": succeeded,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        canceled = d.pop("canceled")

        failed = d.pop("failed")

        pending = d.pop("pending")

        succeeded = d.pop("succeeded")

        total = d.pop("total")

        bulk_job_counts = cls(
            canceled=canceled,
            failed=failed,
            pending=pending,
            succeeded=succeeded,
            total=total,
        )

        return bulk_job_counts
