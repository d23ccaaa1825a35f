"""Google Wallet state: classes written per template revision and issuer, the object of each
pass (sync state and whether a holder saved it), callback nonces seen, notifications sent."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import Model, UTCDateTime, now


class GoogleClass(Model):
    """A class written to Google (`<issuer>.<template>_r<revision>`)."""

    __tablename__ = "google_classes"

    id: Mapped[str] = mapped_column(String(200), primary_key=True)  # Google's class ID
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    template_id: Mapped[str] = mapped_column(ForeignKey("templates.id", ondelete="CASCADE"))
    revision: Mapped[int] = mapped_column(Integer)
    issuer_id: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(24))  # genericClass | eventTicketClass
    written_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class GoogleObject(Model):
    """A pass's Google object: whether it is written, why not, and whether it is saved."""

    __tablename__ = "google_objects"
    __table_args__ = (Index("ix_google_objects_pending", "state", "next_attempt_at"),)

    pass_id: Mapped[str] = mapped_column(
        ForeignKey("passes.id", ondelete="CASCADE"), primary_key=True)
    organization_id: Mapped[str] = mapped_column(String(40))
    environment: Mapped[str] = mapped_column(String(4))
    issuer_id: Mapped[str | None] = mapped_column(String(40))  # Google's issuer ID
    object_id: Mapped[str | None] = mapped_column(String(200), unique=True)
    class_id: Mapped[str | None] = mapped_column(String(200))
    kind: Mapped[str | None] = mapped_column(String(24))  # genericObject | eventTicketObject
    # pending (job to run) | written | failed (will not succeed without a change by people)
    state: Mapped[str] = mapped_column(String(8), default="pending")
    reason: Mapped[str | None] = mapped_column(String(40))
    error: Mapped[str | None] = mapped_column(Text)  # Google's message, for the dashboard
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Installation, from callbacks: saved | removed | None (never saved)
    wallet_state: Mapped[str | None] = mapped_column(String(8))
    saved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class GoogleCallbackNonce(Model):
    """A callback already acted on: its nonce (Google may deliver one twice)."""

    __tablename__ = "google_callback_nonces"

    nonce: Mapped[str] = mapped_column(String(200), primary_key=True)
    object_id: Mapped[str] = mapped_column(String(200))
    event_type: Mapped[str] = mapped_column(String(8))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)  # purgeable after this
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class GoogleNotification(Model):
    """A notifying message sent for a pass: Google allows 3 per pass per 24 hours."""

    __tablename__ = "google_notifications"
    __table_args__ = (Index("ix_google_notifications_pass_sent", "pass_id", "sent_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pass_id: Mapped[str] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"))
    update_id: Mapped[str] = mapped_column(String(40))
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
