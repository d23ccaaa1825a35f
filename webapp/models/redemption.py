"""Redemptions: a pass checked in at the door (or a coupon used), one row per use."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import Model, UTCDateTime, now

MAX_LOCATION_LENGTH = 100


class Redemption(Model):
    __tablename__ = "redemptions"
    __allow_unmapped__ = True
    __table_args__ = (
        # The n-th use of a pass is written once: a second writer that slipped past the
        # conditional UPDATE of `passes.redemption_count` fails here instead of counting twice.
        UniqueConstraint("pass_id", "sequence"),
        Index("ix_redemptions_pass_id", "pass_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    environment: Mapped[str] = mapped_column(String(4))
    pass_id: Mapped[str] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"))
    sequence: Mapped[int] = mapped_column(Integer)  # 1 for the pass's first use, then 2, ...
    redeemed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    source: Mapped[str] = mapped_column(String(8))  # api | scanner
    location: Mapped[str | None] = mapped_column(String(MAX_LOCATION_LENGTH))
    # Who redeemed: a staff user (the scanner page) or an API key; no foreign keys, so a
    # removed user or key leaves the record as it was.
    scanned_by_user_id: Mapped[str | None] = mapped_column(String(40))
    scanned_by_api_key_id: Mapped[str | None] = mapped_column(String(40))

    # Set by services for the front doors.
    pass_: Any = None  # the pass after this redemption (`redeem` and `scan` only)
    scanned_by_name: str | None = None  # the user's email or the key's name
