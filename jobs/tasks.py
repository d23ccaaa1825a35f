"""Job functions: IDs in, one service call each. RQ imports them by dotted name."""

from __future__ import annotations

from webapp.services import idempotency


def purge_idempotency_records() -> int:
    """Delete idempotency records past their 24 hours."""
    return idempotency.purge()
