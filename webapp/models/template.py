"""Templates and their revisions; each revision keeps its full definition."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import JSONType, Model, UTCDateTime, now


class Template(Model):
    __tablename__ = "templates"
    __allow_unmapped__ = True  # `definition` and `required_fields` below are not columns
    __table_args__ = (Index("ix_templates_org_archived_id", "organization_id", "archived", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE")
    )
    type: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(100))
    revision: Mapped[int] = mapped_column(Integer, default=1)
    archived: Mapped[bool] = mapped_column(default=False)
    # Template settings (decisions.md section 5): defaults for live passes.
    apple_certificate_id: Mapped[str | None] = mapped_column(String(40))
    google_issuer_id: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    # The current revision's definition and required fields, set by the service that loads it.
    definition: dict[str, Any] | None = None
    required_fields: list[str] | None = None
    # Its sign-up page in the reader's environment (`services/enrollment/links.attach`).
    enrollment_url: str | None = None


class TemplateRevision(Model):
    __tablename__ = "template_revisions"
    __table_args__ = (UniqueConstraint("template_id", "revision"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    template_id: Mapped[str] = mapped_column(ForeignKey("templates.id", ondelete="CASCADE"))
    revision: Mapped[int] = mapped_column(Integer)
    definition: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
