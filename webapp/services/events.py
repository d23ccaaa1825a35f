"""Events: what happened to an organization's passes, recorded in the same transaction as
the change, for `GET /v1/events` and webhook deliveries (decisions.md section 11).

The webhooks issue fills this in; wallet and pass services already call `emit`.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session


def emit(session: Session, *, organization_id: str, environment: str, type: str,
         data: dict[str, Any]) -> None:
    """Record an event (`pass.added_to_wallet`, ...) in the caller's transaction."""
    # Placeholder until the webhooks issue lands: nothing is recorded yet.
