"""What every node of an installation must agree on, kept where every node reads it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import Model, UTCDateTime, now


class InstallationValue(Model):
    """A named value of the installation (`encryption_check`: a token sealed with the first
    `ENCRYPTION_KEYS` key that started it, which every later node must be able to open)."""

    __tablename__ = "installation_values"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class Upload(Model):
    """A file kept between the steps of a dashboard import, for the one staff user, template
    and environment it was uploaded for: in the database, so any node serves the next step."""

    __tablename__ = "uploads"
    __table_args__ = (Index("ix_uploads_created_at", "created_at"),
                      Index("ix_uploads_scope", "organization_id", "environment"))  # erasure

    id: Mapped[str] = mapped_column(String(40), primary_key=True)  # random, unguessable
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    environment: Mapped[str] = mapped_column(String(4))
    user_id: Mapped[str] = mapped_column(String(40))
    template_id: Mapped[str] = mapped_column(String(40))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
