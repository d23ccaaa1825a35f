"""Passes, their update records (the delivery outbox) and download links."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import JSONType, Model, UTCDateTime, now


class Pass(Model):
    __tablename__ = "passes"
    __allow_unmapped__ = True
    __table_args__ = (
        Index("ix_passes_scope_id", "organization_id", "environment", "id"),
        Index("ix_passes_scope_template_id", "organization_id", "environment", "template_id",
              "id"),
        # The list's other filters, newest first without reading the scope (issue 34).
        Index("ix_passes_scope_status_id", "organization_id", "environment", "status", "id"),
        Index("ix_passes_scope_source_id", "organization_id", "environment", "source", "id"),
        # A scanned per-pass barcode value finds its pass (issue 18, `POST /v1/scans`).
        Index("ix_passes_scope_barcode_value", "organization_id", "environment",
              "barcode_value"),
        # The integrator's own ID of a pass issued by a bulk job (issue 17): one pass each.
        # The scope first, as in every lookup: with (template, environment, externalId)
        # SQLite answered a chunk's `external_id IN (...)` through ix_passes_scope_template_id,
        # reading all the template's passes per chunk.
        Index("ux_passes_scope_template_external_id", "organization_id", "environment",
              "template_id", "external_id", unique=True),
        # `search`: PostgreSQL's trigram GIN index (migration 0002); SQLite's trigram FTS5
        # table `passes_search`, kept in step by triggers (migration 0018).
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    environment: Mapped[str] = mapped_column(String(4))
    template_id: Mapped[str] = mapped_column(ForeignKey("templates.id"))
    template_revision: Mapped[int] = mapped_column(Integer)
    short_id: Mapped[str] = mapped_column(String(12), unique=True)
    status: Mapped[str] = mapped_column(String(8), default="active")  # active | voided
    source: Mapped[str] = mapped_column(String(10))  # api | dashboard
    holder_name: Mapped[str | None] = mapped_column(String(200))
    holder_email: Mapped[str | None] = mapped_column(String(254))
    # "name \x1f email \x1f shortId" folded by `domain/search` (no case, no accents): what
    # `search` matches a part of.
    search_text: Mapped[str] = mapped_column(Text)
    apple: Mapped[bool] = mapped_column(default=False)
    google: Mapped[bool] = mapped_column(default=False)
    barcode_value: Mapped[str | None] = mapped_column(String(500))
    field_values: Mapped[dict[str, Any]] = mapped_column(JSONType)
    apple_certificate_id: Mapped[str | None] = mapped_column(String(40))
    apple_pass_type_identifier: Mapped[str | None] = mapped_column(String(255))
    google_issuer_id: Mapped[str | None] = mapped_column(String(40))
    # Apple's `authenticationToken` (random, fixed for the life of the pass), encrypted with
    # `webapp.vault`: it must be recoverable to go into pass.json.
    auth_token_encrypted: Mapped[str] = mapped_column(Text)
    # Goes up by one on every change: optimistic concurrency and the wallet's version.
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    wallet_updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    voided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # When the holder's data was erased (issue 33): the pass stays, voided, without it.
    erased_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Per-pass dates over the template's (issue 20): RFC 3339 text as given, offset kept,
    # since wallets show the date in that offset. None: the template's applies.
    expires_at: Mapped[str | None] = mapped_column(String(40))
    relevant_date: Mapped[str | None] = mapped_column(String(40))
    # Per-pass images over the template's: slot -> asset ID (`domain/per_pass.IMAGE_SLOTS`).
    images: Mapped[dict[str, str] | None] = mapped_column(JSONType)
    # Tags (issue 33, `domain/tags`), in the order given; None on passes older than them.
    # `pass_tags` holds them again, indexed, for `?tag=`: written in the same transaction.
    tags: Mapped[list[str] | None] = mapped_column(JSONType)
    # The last message sent to the pass (issue 33: `{"id", "header", "body"}`), shown on the
    # back of Apple's pass; None: none yet.
    message: Mapped[dict[str, str] | None] = mapped_column(JSONType)
    # Check-in (issue 18): how often the pass was redeemed, and when last.
    redemption_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    last_redeemed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The integrator's own ID (bulk issue's `externalId`), unique per template and environment.
    external_id: Mapped[str | None] = mapped_column(String(200))
    # Loyalty cards (points) and gift cards (minor units) keep a balance (issue 32; None on
    # the other types); loyalty cards also their lifetime points (earns only: the tier's).
    balance: Mapped[int | None] = mapped_column(BigInteger)
    lifetime_points: Mapped[int | None] = mapped_column(BigInteger)

    # Set by services for the front doors: template name, definition and readiness.
    template_name: str | None = None
    definition: dict[str, Any] | None = None
    artifacts: dict[str, Any] | None = None
    editable_fields: list[dict[str, Any]] | None = None
    editable_barcode: bool | None = None
    preview: dict[str, Any] | None = None
    last_email: Any = None  # the newest PassEmail, or None


class PassTag(Model):
    """One tag of a pass: what `GET /v1/passes?tag=` reads, newest pass first, through
    (organization, environment, tag, pass) without reading the scope's other passes. The
    pass's `tags` column is what the pass shows; both are written together."""

    __tablename__ = "pass_tags"
    __table_args__ = (
        Index("ix_pass_tags_scope_tag_pass", "organization_id", "environment", "tag",
              "pass_id"),
    )

    pass_id: Mapped[str] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"),
                                         primary_key=True)
    tag: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(String(40))
    environment: Mapped[str] = mapped_column(String(4))


class PassUpdate(Model):
    """One change of a pass (or its voiding) and how far its delivery to each wallet got."""

    __tablename__ = "pass_updates"
    __table_args__ = (
        Index("ix_pass_updates_pass_id", "pass_id", "id"),
        Index("ix_pass_updates_pending", "delivery_state", "created_at"),
        # A message's counts (issue 33).
        Index("ix_pass_updates_message_id", "message_id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    pass_id: Mapped[str] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"))
    organization_id: Mapped[str] = mapped_column(String(40))
    environment: Mapped[str] = mapped_column(String(4))
    # update | void | erase | message
    kind: Mapped[str] = mapped_column(String(8), default="update")
    message_id: Mapped[str | None] = mapped_column(String(40))  # kind `message`: which
    notification_mode: Mapped[str] = mapped_column(String(8))
    wallet_changed: Mapped[bool] = mapped_column()
    changes: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    pass_version: Mapped[int] = mapped_column(Integer)
    apple_status: Mapped[str] = mapped_column(String(12))
    apple_devices: Mapped[int] = mapped_column(Integer, default=0)
    apple_error: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    google_status: Mapped[str] = mapped_column(String(12))
    google_message: Mapped[str | None] = mapped_column(Text)
    google_error: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    # A notify update's Google message: True with a notification, False added as TEXT only
    # (the pass's daily budget was spent); None: no message was added.
    google_notified: Mapped[bool | None] = mapped_column()
    # pending while any wallet's delivery is pending: what the sweep looks for.
    delivery_state: Mapped[str] = mapped_column(String(8), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class DownloadLink(Model):
    """An expiring, revocable link to a pass's holder page; only the token's hash is kept."""

    __tablename__ = "download_links"
    __allow_unmapped__ = True
    __table_args__ = (Index("ix_download_links_pass_id", "pass_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    pass_id: Mapped[str] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"))
    organization_id: Mapped[str] = mapped_column(String(40))
    environment: Mapped[str] = mapped_column(String(4))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    url: str | None = None  # only on the object the creation returns
