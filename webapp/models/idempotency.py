"""Idempotency records (decisions.md section 2): one per (organization, environment, key)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import Model, UTCDateTime, now


class IdempotencyRecord(Model):
    __tablename__ = "idempotency_records"
    __table_args__ = (
        UniqueConstraint("organization_id", "environment", "key"),
        Index("ix_idempotency_records_created_at", "created_at"),
        # An erasure's reads. Led by the pass: with the scope first, PostgreSQL's planner could
        # take it for a key's lookup before its first ANALYZE (migration 0027).
        Index("ix_idempotency_records_pass_id", "pass_id", "organization_id", "environment"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(String(40))
    environment: Mapped[str] = mapped_column(String(4))
    key: Mapped[str] = mapped_column(String(255))
    fingerprint: Mapped[str] = mapped_column(String(64))
    request_id: Mapped[str] = mapped_column(String(40))
    # Always "completed": a record is written with its answer, in the request's transaction.
    state: Mapped[str] = mapped_column(String(12))
    status_code: Mapped[int | None] = mapped_column(Integer)
    body: Mapped[str | None] = mapped_column(Text)
    # The pass a successful answer is about (its only holder data); null for the rest, which
    # an erasure opens all of (migration 0026).
    pass_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    locked_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
