"""Delivering webhooks (a job per endpoint), signed per Standard Webhooks.

The job for an endpoint claims its due deliveries a batch at a time (a lease on the rows, so
two workers never send one at once and a dead worker's claim runs out), POSTs them (the
first alone, then up to IN_FLIGHT at once, each on a kept-alive connection of the
endpoint's client, started in claim order: the spec promises no order of arrival) and
records the batch's attempts (one statement per table), until none is due, or one fails, or
the job has had its turn (`TURN_SECONDS`): then it queues itself again behind the other
endpoints' jobs. A failure schedules that delivery's next attempt on decisions.md's schedule
and rests the endpoint until then: its other pending deliveries, and those events add while
it rests, wait for that time too, so a receiver that never answers costs one attempt per
step of the schedule, not one per delivery. A success ends the rest. Running the job twice,
or for an endpoint with nothing due, does nothing.

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
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from datetime import datetime, timedelta
from functools import partial
from typing import Any, cast

from sqlalchemy import ColumnElement, Select, Table, bindparam, or_, select, update

from webapp import clock, ids, metrics, settings, vault
from webapp.db.transaction import (
    changed_rows,
    count_after_commit,
    end_read,
    enqueue_after_commit,
    insert_all,
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
BATCH = 25  # deliveries claimed at once
IN_FLIGHT = 4  # requests to one endpoint in flight together (the spec: unordered)
TURN_SECONDS = 5.0  # how long one job sends before the other endpoints' jobs have a turn


def deliver_endpoint(endpoint_id: str) -> int:
    """Send the endpoint's due deliveries until none is due, one fails or the job's turn is
    over (then it is queued again); how many attempts it made."""
    if not ids.has_prefix(endpoint_id, "we"):
        return 0
    lease = float(settings.get("JOBS_LEASE_SECONDS"))
    started, made = time.monotonic(), 0
    while True:
        claimed = _claim(endpoint_id, lease)
        if not claimed:
            return made
        done, failed = _send(endpoint_id, claimed, lease)
        made += len(done)
        if failed:
            return made
        if time.monotonic() - started >= TURN_SECONDS:
            with transaction() as session:  # the queue's mark dedupes a second wake-up
                enqueue_after_commit(session, events.DELIVER_TASK, endpoint_id)
            return made


def deliver_endpoint_of(delivery_id: str) -> int:
    """`deliver_endpoint` for the endpoint of one delivery (jobs queued per delivery)."""
    endpoint_id = db.session.scalar(select(WebhookDelivery.endpoint_id).where(
        WebhookDelivery.id == delivery_id)) if ids.has_prefix(delivery_id, "whdl") else None
    end_read()
    return deliver_endpoint(endpoint_id) if endpoint_id else 0


def _send(endpoint_id: str, claimed: list[str], lease: float) -> tuple[list[str], bool]:
    """POST the claimed deliveries, started in claim order, stopping at a failure or before
    the lease could run out; record what was done. The IDs attempted, and whether one
    failed."""
    started = time.monotonic()
    rows = {d.id: d for d in db.session.scalars(
        select(WebhookDelivery).where(WebhookDelivery.id.in_(claimed))
        .execution_options(populate_existing=True))}
    endpoint = db.session.get(WebhookEndpoint, endpoint_id)
    if endpoint is None or not rows:  # deleted since the claim: so are its deliveries
        end_read()
        return [], True
    if endpoint.status != "enabled":
        end_read()
        fail_pending(endpoint_id, "endpoint_disabled")
        return [], True
    secrets = active_secrets(endpoint, clock.now())
    url = endpoint.url
    work = [(row_id, rows[row_id].event_id, rows[row_id].attempts,
             json.dumps(events.body(rows[row_id].event), separators=(",", ":"),
                        ensure_ascii=False).encode())
            for row_id in claimed if row_id in rows]
    end_read()  # hold no snapshot or connection while the receiver thinks
    timeout = float(settings.get("WEBHOOK_TIMEOUT_SECONDS"))
    allow_private = bool(settings.get("WEBHOOKS_ALLOW_PRIVATE_NETWORKS"))

    def attempt(event_id: str, body: bytes) -> http.Outcome:
        timestamp = str(int(clock.now().timestamp()))
        headers = {"Content-Type": "application/json", "webhook-id": event_id,
                   "webhook-timestamp": timestamp,
                   "webhook-signature": signature(secrets, event_id, timestamp, body)}
        return http.post(url, body, headers, timeout=timeout, allow_private=allow_private)

    # The first alone: a receiver that fails gets one attempt, not a window of them.
    row_id, event_id, attempts, body = work[0]
    done = [(row_id, attempts, attempt(event_id, body))]
    if done[0][2].ok and len(work) > 1:
        done += _in_flight(work[1:], attempt, started + lease / 2 - timeout)
    _record(endpoint_id, done, released=[w[0] for w in work[len(done):]])
    return [row_id for row_id, _, _ in done], not all(outcome.ok for _, _, outcome in done)


def _in_flight(work: list[tuple[str, str, int, bytes]],
               attempt: Callable[[str, bytes], http.Outcome], start_before: float
               ) -> list[tuple[str, int, http.Outcome]]:
    """Send `work` with up to IN_FLIGHT requests in flight together (each thread on its own
    kept-alive connection of the endpoint's client), started in claim order; none is
    started after a failure or past `start_before` (the lease). What was sent, in order."""
    outcomes: list[http.Outcome | None] = [None] * len(work)
    running: dict[Future[http.Outcome], int] = {}
    with ThreadPoolExecutor(IN_FLIGHT, thread_name_prefix="webhook-send") as pool:
        for index, (_, event_id, _, body) in enumerate(work):
            if len(running) == IN_FLIGHT:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    outcomes[running.pop(future)] = future.result()
            if any(o is not None and not o.ok for o in outcomes) or \
                    time.monotonic() > start_before:
                break
            running[pool.submit(attempt, event_id, body)] = index
        for future, index in running.items():
            outcomes[index] = future.result()
    return [(row_id, attempts, outcome) for (row_id, _, attempts, _), outcome
            in zip(work, outcomes, strict=True) if outcome is not None]


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


def _claim(endpoint_id: str, lease_seconds: float) -> list[str]:
    """Lease up to BATCH of the endpoint's due deliveries that nobody holds, oldest due
    first; their IDs ([] when none is due)."""
    now = clock.now()
    with transaction() as session:
        # Rows another job is taking are skipped, not awaited: taking them out of ID order
        # could deadlock with a transaction that locks in order.
        claimed = session.scalars(
            select(WebhookDelivery.id)
            .where(WebhookDelivery.endpoint_id == endpoint_id, *due(now))
            .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
            .limit(BATCH).with_for_update(skip_locked=True, key_share=True)).all()
        if claimed:  # locked and still due (PostgreSQL checks the newest version it locks)
            session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(claimed))
                            .values(locked_until=now + timedelta(seconds=lease_seconds))
                            .execution_options(synchronize_session=False))
    return list(claimed)


def _record(endpoint_id: str, done: list[tuple[str, int, http.Outcome]],
            released: list[str]) -> None:
    """Record each attempt made, release the claimed deliveries not attempted, and track
    the endpoint's health and rest, in one transaction."""
    at = clock.now()
    claimed = [delivery_id for delivery_id, _, _ in done] + released
    retry_at: datetime | None = None
    with transaction() as session:
        present = set(session.scalars(lock_in_order(WebhookDelivery.id.in_(claimed))))
        done = [item for item in done if item[0] in present]  # not those deleted meanwhile
        released = [delivery_id for delivery_id in released if delivery_id in present]
        if not present:
            return
        attempts_rows, changes = [], []
        for delivery_id, attempts, outcome in done:
            status, next_at = "pending", None
            if outcome.ok:
                status = "succeeded"
            elif attempts >= len(RETRY_SCHEDULE):
                status = "failed"
            else:
                retry_at = next_at = at + RETRY_SCHEDULE[attempts]
            _count(session, metrics.RETRY if status == "pending" else status,
                   outcome.duration_ms)
            changes.append({"delivery_id": delivery_id, "attempts": attempts + 1,
                            "status": status, "next_attempt_at": next_at})
            attempts_rows.append(WebhookAttempt(
                id=ids.new_id("whatt"), delivery_id=delivery_id, attempted_at=at,
                response_status=outcome.status, error_code=outcome.error_code,
                error_message=outcome.error_message, duration_ms=outcome.duration_ms))
        if done:  # one statement per table for the whole batch (executemany)
            insert_all(session, attempts_rows)
            session.connection().execute(_RECORD, [{**c, "at": at} for c in changes])
        if released:
            session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(released))
                            .values(locked_until=None)
                            .execution_options(synchronize_session=False))
        failed = any(not outcome.ok for _, _, outcome in done)
        if failed:
            _rest(session, endpoint_id, retry_at or at + RETRY_SCHEDULE[0])
        elif any(outcome.ok for _, _, outcome in done):
            _endpoint_health(endpoint_id, True, at)
        disabled = failed and _endpoint_health(endpoint_id, False, at)
    if disabled:
        fail_pending(endpoint_id, "endpoint_disabled")


def _count(session: Any, word: str, duration_ms: int) -> None:
    """An attempt and the receiver's time, counted once the attempt's record commits."""
    count_after_commit(session, metrics.WEBHOOK_DELIVERIES.labels(word).inc)
    count_after_commit(session, partial(metrics.WEBHOOK_LATENCY.labels(word).observe,
                                        duration_ms / 1000))


_deliveries = cast(Table, WebhookDelivery.__table__)
_RECORD = update(_deliveries).where(_deliveries.c.id == bindparam("delivery_id")).values(
    attempts=bindparam("attempts"), status=bindparam("status"), last_attempt_at=bindparam("at"),
    next_attempt_at=bindparam("next_attempt_at"), locked_until=None,
    updated_at=bindparam("at"))


def _rest(session: Any, endpoint_id: str, until: datetime) -> None:
    """The endpoint failed: its pending deliveries wait until `until` (the failed one's next
    attempt), and so will those events add meanwhile (`events.emit_all`)."""
    session.execute(
        update(WebhookDelivery)
        .where(WebhookDelivery.id.in_(select(WebhookDelivery.id).where(
            WebhookDelivery.endpoint_id == endpoint_id, WebhookDelivery.status == "pending",
            WebhookDelivery.next_attempt_at < until,
            or_(WebhookDelivery.locked_until.is_(None),
                WebhookDelivery.locked_until <= clock.now()))
            .with_for_update(skip_locked=True, key_share=True)))
        .values(next_attempt_at=until).execution_options(synchronize_session=False))
    session.execute(update(WebhookEndpoint).where(WebhookEndpoint.id == endpoint_id)
                    .values(resting_until=until).execution_options(synchronize_session=False))


def _endpoint_health(endpoint_id: str, ok: bool, at: datetime) -> bool:
    """Track the endpoint's failing streak; disable it after 3 days. True if disabled now."""
    table, session = WebhookEndpoint, db.session()
    if ok:
        session.execute(update(table).where(
            table.id == endpoint_id,
            or_(table.failing_since.is_not(None), table.resting_until.is_not(None)))
            .values(failing_since=None, resting_until=None)
            .execution_options(synchronize_session=False))
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
