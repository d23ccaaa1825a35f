"""Delivering one webhook (a job per delivery row), signed per Standard Webhooks.

A delivery is claimed (a lease on the row, so two workers never send it at once and a
dead worker's claim runs out), POSTed, and its attempt recorded. A failure schedules the
next attempt on decisions.md's schedule; the sweep enqueues it when it is due. Running the
job twice, or for a row that is not due, does nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, update

from webapp import clock, ids, settings
from webapp.extensions import db
from webapp.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from webapp.services import events, vault, webhook_http
from webapp.services._tx import end_read, transaction

# After attempt n fails, attempt n+1 comes RETRY_SCHEDULE[n-1] later: 8 attempts, ~28 h.
RETRY_SCHEDULE = (timedelta(seconds=5), timedelta(minutes=5), timedelta(minutes=30),
                  timedelta(hours=2), timedelta(hours=5), timedelta(hours=10),
                  timedelta(hours=10))
DISABLE_AFTER = timedelta(days=3)


def deliver(delivery_id: str) -> webhook_http.Outcome | None:
    """Make the delivery's next attempt if it is due and nobody else is making it; the
    attempt's outcome, or None when no attempt was made."""
    if not ids.has_prefix(delivery_id, "whdl") or not _claim(delivery_id):
        return None
    delivery = db.session.get(WebhookDelivery, delivery_id, populate_existing=True)
    if delivery is None:  # pragma: no cover - deleted between the claim and now
        return None
    endpoint = delivery.endpoint
    if endpoint.status != "enabled":
        fail_pending(endpoint.id, "endpoint_disabled")
        return None
    body = json.dumps(events.body(delivery.event), separators=(",", ":"),
                      ensure_ascii=False).encode()
    now = clock.now()
    timestamp = str(int(now.timestamp()))
    headers = {"Content-Type": "application/json", "webhook-id": delivery.event_id,
               "webhook-timestamp": timestamp,
               "webhook-signature": signature(active_secrets(endpoint, now),
                                              delivery.event_id, timestamp, body)}
    url, endpoint_id, attempts = endpoint.url, endpoint.id, delivery.attempts
    end_read()  # hold no snapshot or connection while the receiver thinks
    outcome = webhook_http.post(url, body, headers,
                                timeout=float(settings.get("WEBHOOK_TIMEOUT_SECONDS")),
                                allow_private=bool(settings.get(
                                    "WEBHOOKS_ALLOW_PRIVATE_NETWORKS")))
    _record(delivery_id, endpoint_id, attempts, outcome)
    return outcome


def signature(secrets: list[str], msg_id: str, timestamp: str, body: bytes) -> str:
    """`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret, space-separated."""
    signed = f"{msg_id}.{timestamp}.".encode() + body
    parts = []
    for secret in secrets:
        key = base64.b64decode(secret.removeprefix("whsec_"))
        digest = hmac.new(key, signed, hashlib.sha256).digest()
        parts.append("v1," + base64.b64encode(digest).decode())
    return " ".join(parts)


def read_secrets(endpoint: WebhookEndpoint) -> list[dict[str, Any]]:
    """The endpoint's secrets, current first: `{"secret", "expiresAt"}`."""
    return json.loads(vault.decrypt(endpoint.secrets_encrypted))


def active_secrets(endpoint: WebhookEndpoint, now: datetime) -> list[str]:
    """The secrets that sign now: the current one and any previous one not yet expired."""
    stamp = clock.isoformat(now) or ""
    return [s["secret"] for s in read_secrets(endpoint)
            if s.get("expiresAt") is None or s["expiresAt"] > stamp]


def fail_pending(endpoint_id: str, code: str) -> None:
    """Give up the endpoint's pending deliveries (it was disabled): no attempt is made."""
    now = clock.now()
    with transaction() as session:
        session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.endpoint_id == endpoint_id,
                   WebhookDelivery.status == "pending")
            .values(status="failed", failure_code=code, next_attempt_at=None,
                    locked_until=None, updated_at=now)
            .execution_options(synchronize_session=False))


def _claim(delivery_id: str) -> bool:
    now = clock.now()
    lease = timedelta(seconds=float(settings.get("JOBS_LEASE_SECONDS")))
    with transaction() as session:
        won = session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.id == delivery_id, WebhookDelivery.status == "pending",
                   WebhookDelivery.next_attempt_at <= now,
                   or_(WebhookDelivery.locked_until.is_(None),
                       WebhookDelivery.locked_until <= now))
            .values(locked_until=now + lease)
            .execution_options(synchronize_session=False)).rowcount
    return won == 1


def _record(delivery_id: str, endpoint_id: str, attempts: int,
            outcome: webhook_http.Outcome) -> None:
    at = clock.now()
    values: dict[str, Any] = {"attempts": attempts + 1, "last_attempt_at": at,
                              "locked_until": None, "updated_at": at}
    if outcome.ok:
        values.update(status="succeeded", next_attempt_at=None)
    elif attempts >= len(RETRY_SCHEDULE):
        values.update(status="failed", next_attempt_at=None)
    else:
        values["next_attempt_at"] = at + RETRY_SCHEDULE[attempts]
    with transaction() as session:
        session.add(WebhookAttempt(
            id=ids.new_id("whatt"), delivery_id=delivery_id, attempted_at=at,
            response_status=outcome.status, error_code=outcome.error_code,
            error_message=outcome.error_message, duration_ms=outcome.duration_ms))
        session.execute(update(WebhookDelivery).where(WebhookDelivery.id == delivery_id)
                        .values(**values).execution_options(synchronize_session=False))
        disabled = _endpoint_health(endpoint_id, outcome.ok, at)
    if disabled:
        fail_pending(endpoint_id, "endpoint_disabled")


def _endpoint_health(endpoint_id: str, ok: bool, at: datetime) -> bool:
    """Track the endpoint's failing streak; disable it after 3 days. True if disabled now."""
    table, session = WebhookEndpoint, db.session()
    if ok:
        session.execute(update(table).where(table.id == endpoint_id,
                                            table.failing_since.is_not(None))
                        .values(failing_since=None).execution_options(synchronize_session=False))
        return False
    session.execute(update(table).where(table.id == endpoint_id, table.failing_since.is_(None))
                    .values(failing_since=at).execution_options(synchronize_session=False))
    won = session.execute(
        update(table).where(table.id == endpoint_id, table.status == "enabled",
                            table.failing_since <= at - DISABLE_AFTER)
        .values(status="disabled", disabled_reason="failing", updated_at=at)
        .execution_options(synchronize_session=False)).rowcount
    return won == 1
