"""Delivering webhooks (a job per delivery row), signed per Standard Webhooks.

A delivery is claimed (a lease on the row, so two workers never send it at once and a
dead worker's claim runs out), POSTed, and its attempt recorded. The job for one delivery
also claims, in the same transaction, up to `BATCH - 1` other due deliveries of the same
endpoint and sends them over the same keep-alive connection; their own jobs then find
nothing to do (a read, no write lock). A failure stops the batch (the rest are released
for their own jobs), and so does a batch that could outgrow its lease. A failure schedules
the next attempt on decisions.md's schedule; the sweep enqueues it when it is due. Running
the job twice, or for a row that is not due, does nothing.

Lock order (PostgreSQL): a transaction that locks several deliveries of an endpoint takes
them in ID order (`lock_in_order`), and the endpoint after them; a statement that cannot
keep that order takes only rows nobody holds (SKIP LOCKED). So no two webhook jobs, API
calls or sweeps wait for each other in a circle (a deadlock).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, or_, select, update

from webapp import clock, ids, settings, vault
from webapp.db.transaction import (
    changed_rows,
    end_read,
    enqueue_after_commit,
    transaction,
)
from webapp.extensions import db
from webapp.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from webapp.services.webhooks import events, http

# After attempt n fails, attempt n+1 comes RETRY_SCHEDULE[n-1] later: 8 attempts, ~28 h.
RETRY_SCHEDULE = (timedelta(seconds=5), timedelta(minutes=5), timedelta(minutes=30),
                  timedelta(hours=2), timedelta(hours=5), timedelta(hours=10),
                  timedelta(hours=10))
DISABLE_AFTER = timedelta(days=3)
BATCH = 25  # deliveries of one endpoint that one job may send


def deliver(delivery_id: str) -> http.Outcome | None:
    """Make the delivery's next attempt if it is due and nobody else is making it (with
    other due deliveries of its endpoint); its outcome, or None when no attempt was made."""
    if not ids.has_prefix(delivery_id, "whdl"):
        return None
    lease = float(settings.get("JOBS_LEASE_SECONDS"))
    claimed = _claim(delivery_id, lease)
    if not claimed:
        return None
    started = time.monotonic()
    rows = {d.id: d for d in db.session.scalars(
        select(WebhookDelivery).where(WebhookDelivery.id.in_(claimed))
        .execution_options(populate_existing=True))}
    first = rows.get(delivery_id)
    if first is None:  # pragma: no cover - deleted between the claim and now
        return None
    endpoint = first.endpoint
    if endpoint.status != "enabled":
        fail_pending(endpoint.id, "endpoint_disabled")
        return None
    secrets = active_secrets(endpoint, clock.now())
    url, endpoint_id = endpoint.url, endpoint.id
    work = [(row_id, rows[row_id].event_id, rows[row_id].attempts,
             json.dumps(events.body(rows[row_id].event), separators=(",", ":"),
                        ensure_ascii=False).encode())
            for row_id in claimed if row_id in rows]
    end_read()  # hold no snapshot or connection while the receiver thinks
    timeout = float(settings.get("WEBHOOK_TIMEOUT_SECONDS"))
    allow_private = bool(settings.get("WEBHOOKS_ALLOW_PRIVATE_NETWORKS"))
    done: list[tuple[str, int, http.Outcome]] = []
    for row_id, event_id, attempts, body in work:
        if done and (not done[-1][2].ok or
                     time.monotonic() - started + timeout > lease / 2):
            break  # the rest go back to their own jobs
        timestamp = str(int(clock.now().timestamp()))
        headers = {"Content-Type": "application/json", "webhook-id": event_id,
                   "webhook-timestamp": timestamp,
                   "webhook-signature": signature(secrets, event_id, timestamp, body)}
        outcome = http.post(url, body, headers, timeout=timeout,
                            allow_private=allow_private)
        done.append((row_id, attempts, outcome))
    _record(endpoint_id, done, released=[w[0] for w in work[len(done):]])
    return done[0][2]


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
    pending = lock_in_order(WebhookDelivery.endpoint_id == endpoint_id,
                            WebhookDelivery.status == "pending")
    with transaction() as session:
        session.execute(
            update(WebhookDelivery).where(WebhookDelivery.id.in_(pending))
            .values(status="failed", failure_code=code, next_attempt_at=None,
                    locked_until=None, updated_at=now)
            .execution_options(synchronize_session=False))


def lock_in_order(*where: ColumnElement[bool], for_delete: bool = False) -> Select[str]:
    """The IDs of the deliveries `where` picks, locked in ID order when it runs (alone or as
    a subquery): FOR NO KEY UPDATE, as an UPDATE locks, or FOR UPDATE before a delete.
    Every path that locks several deliveries takes them through it."""
    return (select(WebhookDelivery.id).where(*where).order_by(WebhookDelivery.id)
            .with_for_update(key_share=not for_delete))


def due(now: datetime) -> tuple[ColumnElement[bool], ...]:
    """A delivery that is pending, due, and held by nobody."""
    return (WebhookDelivery.status == "pending", WebhookDelivery.next_attempt_at <= now,
            or_(WebhookDelivery.locked_until.is_(None), WebhookDelivery.locked_until <= now))


def _claim(delivery_id: str, lease_seconds: float | None = None) -> list[str]:
    """Lease the delivery and up to BATCH - 1 other due ones of its endpoint; the IDs won,
    the given one first, or [] when it is not due or someone else holds it."""
    now = clock.now()
    endpoint_id = db.session.scalar(select(WebhookDelivery.endpoint_id).where(
        WebhookDelivery.id == delivery_id, *due(now)))
    end_read()
    if endpoint_id is None:  # already sent, not due, or held: no write lock needed
        return []
    if lease_seconds is None:
        lease_seconds = float(settings.get("JOBS_LEASE_SECONDS"))
    values = {"locked_until": now + timedelta(seconds=lease_seconds)}
    with transaction() as session:
        won = changed_rows(
            session,
            update(WebhookDelivery).where(WebhookDelivery.id == delivery_id, *due(now))
            .values(**values).execution_options(synchronize_session=False))
        if won != 1:
            return []
        # This transaction holds a row now, so it must not wait for others out of ID
        # order: rows another claim is taking are skipped (they are its batch), not awaited.
        others = session.scalars(
            select(WebhookDelivery.id)
            .where(WebhookDelivery.endpoint_id == endpoint_id,
                   WebhookDelivery.id != delivery_id, *due(now))
            .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
            .limit(BATCH - 1).with_for_update(skip_locked=True, key_share=True)).all()
        if others:  # locked and still due (PostgreSQL checks the newest version it locks)
            session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(others))
                            .values(**values).execution_options(synchronize_session=False))
    return [delivery_id, *others]


def _record(endpoint_id: str, done: list[tuple[str, int, http.Outcome]],
            released: list[str]) -> None:
    """Record each attempt made, release the claimed deliveries not attempted, and track
    the endpoint's health, in one transaction."""
    at = clock.now()
    claimed = [delivery_id for delivery_id, _, _ in done] + released
    with transaction() as session:
        session.execute(lock_in_order(WebhookDelivery.id.in_(claimed)))
        for delivery_id, attempts, outcome in done:
            values: dict[str, Any] = {"attempts": attempts + 1, "last_attempt_at": at,
                                      "locked_until": None, "updated_at": at}
            if outcome.ok:
                values.update(status="succeeded", next_attempt_at=None)
            elif attempts >= len(RETRY_SCHEDULE):
                values.update(status="failed", next_attempt_at=None)
            else:
                values["next_attempt_at"] = at + RETRY_SCHEDULE[attempts]
            session.add(WebhookAttempt(
                id=ids.new_id("whatt"), delivery_id=delivery_id, attempted_at=at,
                response_status=outcome.status, error_code=outcome.error_code,
                error_message=outcome.error_message, duration_ms=outcome.duration_ms))
            session.execute(update(WebhookDelivery).where(WebhookDelivery.id == delivery_id)
                            .values(**values).execution_options(synchronize_session=False))
        if released:  # back to their own jobs (which found them held and did nothing)
            session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(released))
                            .values(locked_until=None)
                            .execution_options(synchronize_session=False))
            for delivery_id in released:
                enqueue_after_commit(session, events.DELIVER_TASK, delivery_id)
        if any(outcome.ok for _, _, outcome in done):
            _endpoint_health(endpoint_id, True, at)
        disabled = not done[-1][2].ok and _endpoint_health(endpoint_id, False, at)
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
    won = changed_rows(
        session,
        update(table).where(table.id == endpoint_id, table.status == "enabled",
                            table.failing_since <= at - DISABLE_AFTER)
        .values(status="disabled", disabled_reason="failing", updated_at=at)
        .execution_options(synchronize_session=False))
    return won == 1
