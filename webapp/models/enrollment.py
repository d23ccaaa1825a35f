"""Sign-up pages (issue 33): each template's links per environment, and who signed up."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import Model, UTCDateTime, now


class EnrollmentLink(Model):
    """A sign-up page's address (`/join/<slug>`) of a template in one environment; the
    current one has no `retired_at` (a replaced one answers "sign-ups are closed")."""

    __tablename__ = "enrollment_links"
    __table_args__ = (Index("ix_enrollment_links_template_environment", "template_id",
                            "environment"),)

    slug: Mapped[str] = mapped_column(String(40), primary_key=True)
    template_id: Mapped[str] = mapped_column(ForeignKey("templates.id", ondelete="CASCADE"))
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    environment: Mapped[str] = mapped_column(String(4))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    retired_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Enrollment(Model):
    """One person's sign-up for a template in an environment: the key is a hash of the
    normalised email (one person, one pass), the row names the pass it got."""

    __tablename__ = "enrollments"
    __table_args__ = (Index("ix_enrollments_pass_id", "pass_id"),)  # export, erasure (0026)

    template_id: Mapped[str] = mapped_column(
        ForeignKey("templates.id", ondelete="CASCADE"), primary_key=True)
    environment: Mapped[str] = mapped_column(String(4), primary_key=True)
    email_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    pass_id: Mapped[str | None] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    # The consent sentence the person ticked for that pass, as the page showed it, and when
    # (null: the page asked for none); the holder's export shows them.
    consent: Mapped[str | None] = mapped_column(Text)
    consented_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
