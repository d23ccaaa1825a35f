"""Insights (issue 19): daily counts of what happened to passes, and each pass's own
activity (page views, add intents, wallet installs and removals) for its timeline."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import BigInteger, Date, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import Model, UTCDateTime, now

# Wallet-neutral counts (issued, page views) are kept once for the pass (`all`) and once per
# wallet the pass is issued for; wallet counts only per wallet.
ALL_PLATFORMS = "all"


class InsightsDaily(Model):
    """How often `metric` happened on a UTC `day`, per template and platform: one row,
    raised by an UPSERT in the same transaction as each fact."""

    __tablename__ = "insights_daily"

    # The key leads with metric then day: a range of days of a few metrics is one index
    # range per metric, and "installed" (added - removed before a day) reads only those two.
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True)
    environment: Mapped[str] = mapped_column(String(4), primary_key=True)
    metric: Mapped[str] = mapped_column(String(16), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    template_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    platform: Mapped[str] = mapped_column(String(6), primary_key=True)  # all | apple | google
    count: Mapped[int] = mapped_column(BigInteger, default=0)


class PassActivity(Model):
    """One thing a holder or a wallet did with a pass: `viewed`, `add_intent`, `added`,
    `removed` (the last three name the wallet)."""

    __tablename__ = "pass_activities"
    __table_args__ = (Index("ix_pass_activities_pass_id", "pass_id", "id"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True)
    pass_id: Mapped[str] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))
    platform: Mapped[str | None] = mapped_column(String(6))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
