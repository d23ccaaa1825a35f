"""A message as the API and its events show it."""

from __future__ import annotations

from typing import Any

from webapp import clock
from webapp.models import Message


def message(item: Message) -> dict[str, Any]:
    """The `message` object (its counts attached by `reading.shown`)."""
    return {
        "object": "message", "id": item.id, "header": item.header, "body": item.body,
        "audience": dict(item.audience), "status": item.status,
        "sendAt": clock.isoformat(item.send_at) if item.send_at else None,
        "audienceSize": item.audience_size, "processed": item.processed,
        "delivery": item.delivery, "source": item.source,
        "createdAt": clock.isoformat(item.created_at),
        "updatedAt": clock.isoformat(item.updated_at),
        "startedAt": clock.isoformat(item.started_at) if item.started_at else None,
        "finishedAt": clock.isoformat(item.finished_at) if item.finished_at else None,
        "canceledAt": clock.isoformat(item.canceled_at) if item.canceled_at else None,
    }
