"""Balance transactions: each earn or spend of a loyalty card's points or a gift card's money
(issue 32), one row per movement; the pass keeps the balance itself."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import Model, UTCDateTime, now

MAX_REASON_LENGTH = 100
MAX_REFERENCE_LENGTH = 200


class BalanceTransaction(Model):
    __tablename__ = "balance_transactions"
    __allow_unmapped__ = True
    __table_args__ = (Index("ix_balance_transactions_pass_id", "pass_id", "id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"))
    environment: Mapped[str] = mapped_column(String(4))
    pass_id: Mapped[str] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"))
    amount: Mapped[int] = mapped_column(BigInteger)  # negative: a spend
    # The pass's balance right after this movement: written from the row the movement's own
    # conditional UPDATE left, so concurrent movements each see their exact result.
    balance_after: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str | None] = mapped_column(String(MAX_REASON_LENGTH))
    reference: Mapped[str | None] = mapped_column(String(MAX_REFERENCE_LENGTH))
    source: Mapped[str] = mapped_column(String(10))  # api | dashboard | scanner | bulk
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    pass_: Any = None  # set by services: the pass after this movement
