"""Emails of a pass to its holder: a row first (in the request's transaction), a job second."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import JSONType, Model, UTCDateTime, now


class PassEmail(Model):
    """One email of a pass to one address, and how far its sending got."""

    __tablename__ = "pass_emails"
    __table_args__ = (
        Index("ix_pass_emails_pass_id", "pass_id", "id"),
        Index("ix_pass_emails_due", "status", "next_attempt_at"),
        # The hour's emails of an organization, counted for the per-address cap.
        Index("ix_pass_emails_organization_created", "organization_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    pass_id: Mapped[str] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"))
    organization_id: Mapped[str] = mapped_column(String(40))
    environment: Mapped[str] = mapped_column(String(4))
    to_address: Mapped[str] = mapped_column(String(254))
    locale: Mapped[str] = mapped_column(String(5))  # en | de | fr | es
    status: Mapped[str] = mapped_column(String(8), default="queued")  # queued | sent | failed
    # Why it failed: {"code", "message"}; null otherwise.
    error: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    # Attempts made so far: the step on the retry schedule.
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # A worker holds the email until then (one send at a time); a dead worker's hold runs out.
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
