"""Messages to pass holders (issue 33): one text sent to an audience of passes.

A message is handed out in chunks by a job (`services/messages/sending.py`): each chunk writes
the text to its passes (`passes.message`, the Apple back field) as their next version and
records a `message` pass update per pass, which the usual outbox pushes to both wallets.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import JSONType, Model, UTCDateTime, now


class Message(Model):
    __tablename__ = "messages"
    __allow_unmapped__ = True
    __table_args__ = (
        Index("ix_messages_scope_id", "organization_id", "environment", "id"),
        # The sweep: scheduled messages whose time has come, sending ones gone quiet.
        Index("ix_messages_status_send_at", "status", "send_at"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    environment: Mapped[str] = mapped_column(String(4))
    source: Mapped[str] = mapped_column(String(10))  # api | dashboard
    header: Mapped[str] = mapped_column(String(100))
    body: Mapped[str] = mapped_column(Text)
    # {"passIds": [...]} or {"templateId", "tag", "search"} (members left out: any)
    audience: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # scheduled | sending | sent | canceled
    status: Mapped[str] = mapped_column(String(10))
    send_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Passes the audience matched when sending began (before: when the message was created).
    audience_size: Mapped[int] = mapped_column(Integer, default=0)
    processed: Mapped[int] = mapped_column(Integer, default=0)  # passes handed out so far
    cursor: Mapped[str | None] = mapped_column(String(40))  # the last pass handed out
    # Passes of the audience that got no update, by reason (`pass_voided`).
    skipped: Mapped[dict[str, int] | None] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    canceled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    delivery: dict[str, Any] | None = None  # set by services for the front doors
