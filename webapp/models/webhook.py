"""Events, webhook endpoints, their deliveries (an outbox) and each delivery attempt."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from webapp.models.base import JSONType, Model, UTCDateTime, now


class Event(Model):
    """Something that happened to an organization's passes; kept 30 days."""

    __tablename__ = "events"
    __table_args__ = (
        Index("ix_events_scope_id", "organization_id", "environment", "id"),
        Index("ix_events_scope_type_id", "organization_id", "environment", "type", "id"),
        Index("ix_events_created_at", "created_at"),
        # A pass's events (its export and erasure); with the scope first, so SQLite's planner
        # prefers it to reading the scope's events in order.
        Index("ix_events_scope_pass_id", "organization_id", "environment", "pass_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    environment: Mapped[str] = mapped_column(String(4))
    type: Mapped[str] = mapped_column(String(40))
    data: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # The pass the event is about (`webhooks.events.pass_of`: its object, or its object's
    # `passId`); null for a bulk job's or a message's event.
    pass_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class WebhookEndpoint(Model):
    """A URL that receives an environment's events, signed with its secret(s)."""

    __tablename__ = "webhook_endpoints"
    __allow_unmapped__ = True
    __table_args__ = (Index("ix_webhook_endpoints_scope_id", "organization_id", "environment",
                            "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    environment: Mapped[str] = mapped_column(String(4))
    url: Mapped[str] = mapped_column(String(2048))
    description: Mapped[str | None] = mapped_column(String(200))
    enabled_events: Mapped[list[str]] = mapped_column(JSONType)
    status: Mapped[str] = mapped_column(String(8), default="enabled")  # enabled | disabled
    # Why it is disabled: `manual` (PATCH, dashboard) or `failing` (3 days of failures).
    disabled_reason: Mapped[str | None] = mapped_column(String(10))
    # Encrypted JSON list of {"secret", "expiresAt"}: the current one first, then the
    # previous ones still signing after a rotation until they expire.
    secrets_encrypted: Mapped[bytes] = mapped_column(LargeBinary)
    # First failure since the last success: 3 days of it disables the endpoint.
    failing_since: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Its last attempt failed: nothing is sent before this (the failed one's next attempt).
    resting_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    secret: str | None = None  # set only on the objects that create and rotate return
    deleted: bool = False  # set on the object the deletion returns


class WebhookDelivery(Model):
    """One event for one endpoint: a row first, a job second (the sweep finds lost jobs)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index("ix_webhook_deliveries_endpoint_id", "endpoint_id", "id"),
        Index("ix_webhook_deliveries_endpoint_due", "endpoint_id", "status", "next_attempt_at"),
        Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),
        Index("ix_webhook_deliveries_event_id", "event_id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    endpoint_id: Mapped[str] = mapped_column(
        ForeignKey("webhook_endpoints.id", ondelete="CASCADE"))
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    organization_id: Mapped[str] = mapped_column(String(40))
    environment: Mapped[str] = mapped_column(String(4))
    event_type: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(10), default="pending")  # pending|succeeded|failed
    # Attempts since the delivery was created or resent: the step on the retry schedule.
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # A worker holds the delivery until then; a dead worker's hold simply runs out.
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Why it failed without an attempt (e.g. `endpoint_disabled`), else null.
    failure_code: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    event: Mapped[Event] = relationship(lazy="joined")
    endpoint: Mapped[WebhookEndpoint] = relationship()
    attempt_log: Mapped[list[WebhookAttempt]] = relationship(
        order_by="WebhookAttempt.id", cascade="all, delete-orphan", passive_deletes=True)


class WebhookAttempt(Model):
    """One POST of a delivery: when, the answer's status or the error, how long it took."""

    __tablename__ = "webhook_attempts"
    __table_args__ = (Index("ix_webhook_attempts_delivery_id", "delivery_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    delivery_id: Mapped[str] = mapped_column(
        ForeignKey("webhook_deliveries.id", ondelete="CASCADE"))
    attempted_at: Mapped[datetime] = mapped_column(UTCDateTime)
    response_status: Mapped[int | None] = mapped_column(Integer)
    error_code: Mapped[str | None] = mapped_column(String(40))
    error_message: Mapped[str | None] = mapped_column(String(300))
    duration_ms: Mapped[int] = mapped_column(Integer, default=0)
