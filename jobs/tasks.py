"""Job functions: IDs in, one service call each. RQ imports them by dotted name."""

from __future__ import annotations

from webapp.services import deliveries, idempotency


def deliver_pass_update(update_id: str) -> None:
    """Push one pass update to the wallets that hold the pass."""
    deliveries.deliver(update_id)


def purge_idempotency_records() -> int:
    """Delete idempotency records past their 24 hours."""
    return idempotency.purge()
