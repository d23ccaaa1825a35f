"""Bulk jobs: many passes issued, updated, voided or moved to a revision in the background.

A job's items are rows too: an item is applied in the same transaction that marks it done,
so a worker killed mid-job leaves every item either applied and marked, or neither.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import JSONType, Model, UTCDateTime, now


class BulkJob(Model):
    __tablename__ = "bulk_jobs"
    __table_args__ = (
        Index("ix_bulk_jobs_scope_id", "organization_id", "environment", "id"),
        # The sweep looks for queued or running jobs whose lease ran out.
        Index("ix_bulk_jobs_status", "status", "lease_until"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    environment: Mapped[str] = mapped_column(String(4))
    # issue | update | void | upgrade | adjust_balance
    operation: Mapped[str] = mapped_column(String(16))
    # queued | running | completed | failed | canceled
    status: Mapped[str] = mapped_column(String(10), default="queued")
    template_id: Mapped[str | None] = mapped_column(String(40))  # issue, upgrade
    to_revision: Mapped[int | None] = mapped_column(Integer)  # upgrade
    notification_mode: Mapped[str | None] = mapped_column(String(8))  # update, upgrade
    locale: Mapped[str] = mapped_column(String(8), default="en")  # emails of `send` items
    source: Mapped[str] = mapped_column(String(10))  # api | dashboard: the passes' source
    created_by_api_key_id: Mapped[str | None] = mapped_column(String(40))
    created_by_user_id: Mapped[str | None] = mapped_column(String(40))
    total: Mapped[int] = mapped_column(Integer)
    succeeded: Mapped[int] = mapped_column(Integer, default=0)
    failed: Mapped[int] = mapped_column(Integer, default=0)
    canceled: Mapped[int] = mapped_column(Integer, default=0)
    # The running worker's hold on the job, renewed with every chunk: once it has passed,
    # the worker is taken for dead and the sweep hands the job to another.
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    @property
    def pending(self) -> int:
        """Items not done yet."""
        return self.total - self.succeeded - self.failed - self.canceled


class BulkJobItem(Model):
    """One item of a job: its input as sent and, once applied, its result."""

    __tablename__ = "bulk_job_items"
    __table_args__ = (
        Index("ix_bulk_job_items_status", "job_id", "status", "index"),
        # A pass's erasure: its items, the items never applied (no pass; failed, canceled),
        # and the items naming its externalId (migration 0026).
        Index("ix_bulk_job_items_pass_id", "pass_id", "status"),
        Index("ix_bulk_job_items_external_id", "external_id"),
    )

    job_id: Mapped[str] = mapped_column(
        ForeignKey("bulk_jobs.id", ondelete="CASCADE"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0-based, as sent
    external_id: Mapped[str | None] = mapped_column(String(200))
    input: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # pending | succeeded | failed | canceled
    status: Mapped[str] = mapped_column(String(10), default="pending")
    pass_id: Mapped[str | None] = mapped_column(String(40))
    # An issue item whose externalId already had a pass: that pass, nothing issued.
    existing: Mapped[bool] = mapped_column(default=False)
    error: Mapped[dict[str, Any] | None] = mapped_column(JSONType)  # the API's error shape
