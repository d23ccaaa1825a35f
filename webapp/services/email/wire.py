"""The email as the API, events and the pass's `lastEmail` show it."""

from __future__ import annotations

from typing import Any

from webapp import clock
from webapp.models import PassEmail


def email_object(row: PassEmail) -> dict[str, Any]:
    """`{object: "email", id, passId, to, locale, status, error, createdAt, sentAt}`."""
    return {
        "object": "email", "id": row.id, "passId": row.pass_id, "to": row.to_address,
        "locale": row.locale, "status": row.status,
        "error": dict(row.error) if row.error else None,
        "createdAt": clock.isoformat(row.created_at), "sentAt": clock.isoformat(row.sent_at),
    }
