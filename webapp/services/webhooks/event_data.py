"""What events carry: the pass as in list results, the pass update as the API shows it.

The pass's members are written once, in `services/passes/views.wire` (the API's
`dump_pass` uses it too); the API's marshmallow schemas say the same for HTTP.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from webapp import clock
from webapp.models import Pass, PassUpdate, Template
from webapp.services.passes import views


def pass_object(session: Session, item: Pass) -> dict[str, Any]:
    """The pass as in list results (no field values, no dashboard-only members)."""
    name = getattr(item, "template_name", None)  # set by whoever holds it already
    if name is None:
        template = session.get(Template, item.template_id)
        name = template.name if template else None
    return views.wire(item, name, detail=False)


def changes(record: PassUpdate) -> list[dict[str, Any]]:
    """The changed fields: key, label, from, to (values as strings)."""
    return [{"key": str(c.get("key")), "label": c.get("label"), "from": _text(c.get("from")),
             "to": _text(c.get("to"))} for c in record.changes or []]


def pass_update_object(record: PassUpdate) -> dict[str, Any]:
    """The pass update record as `GET /v1/pass-updates/<id>` shows it."""
    return {
        "object": "pass_update", "id": record.id, "passId": record.pass_id,
        "kind": record.kind, "messageId": record.message_id,
        "notificationMode": record.notification_mode,
        "walletChanged": bool(record.wallet_changed), "changes": {"fields": changes(record)},
        "delivery": {
            "apple": {"status": record.apple_status, "devices": record.apple_devices or 0,
                      "error": record.apple_error},
            "google": {"status": record.google_status, "message": record.google_message,
                       "error": record.google_error}},
        "createdAt": clock.isoformat(record.created_at),
    }


def _text(value: Any) -> str | None:
    return None if value is None else str(value)
