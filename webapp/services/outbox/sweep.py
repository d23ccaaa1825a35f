"""The periodic sweep: pending work whose job was lost gets a new one.

Every kind of pending row (pass-update deliveries, Google object writes, webhook
deliveries) is a row first and a job second. A job can be lost (Redis restarted without
persistence, a worker killed mid-job, an enqueue that failed while Redis was down); the
sweep finds the rows that are due (`next_attempt_at` has come) or pending for longer than
`SWEEP_STALE_SECONDS` without progress, and enqueues them again; the queue leaves out rows
whose job still waits (`jobs.queue`), so a long queue never fills with copies. Jobs are
idempotent, so running one twice does no harm. One sweep runs at a time, whichever worker or
node starts it (`webapp.db.locks`). The sweep also purges events older than 30 days and
idempotency records older than 24 hours.

Another kind of pending row joins with `register(name, source)`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, func, or_, select

from webapp import clock, settings
from webapp.db import idempotency, locks
from webapp.db.transaction import dispatch, end_read, enqueue_after_commit, transaction
from webapp.extensions import db
from webapp.models import Event, GoogleObject, PassUpdate, WebhookDelivery
from webapp.services import bulk, messages
from webapp.services.google import callbacks
from webapp.services.webhooks import delivery, events

# source(now, stale_before, limit) -> the jobs to enqueue: [(task name, row ID, ...)]
Source = Callable[[datetime, datetime, int], list[tuple[str, ...]]]
SOURCES: dict[str, Source] = {}
GIVE_UP_AFTER = timedelta(days=2)  # pass-update and Google rows older than this are left
PURGE_EVERY = 600.0  # seconds between purges in one process
# time.monotonic() at this process's last purge; None: it has not purged yet (the
# monotonic clock may start near 0 at boot, so no number means "never").
_last_purge: float | None = None


def register(name: str, source: Source) -> None:
    """Add a kind of pending row to the sweep."""
    SOURCES[name] = source


def run(limit: int = 500) -> int:
    """Enqueue due and stale pending work (at most `limit` rows of each kind); how many.
    One sweep at a time in the installation: another one meanwhile does nothing (0)."""
    with locks.only_one("sweep") as held:
        return _sweep(limit) if held else 0


def _sweep(limit: int) -> int:
    now = clock.now()
    stale = now - timedelta(seconds=float(settings.get("SWEEP_STALE_SECONDS")))
    work: list[tuple[str, ...]] = []
    for source in list(SOURCES.values()):
        work.extend(source(now, stale, limit))
    end_read()
    session = db.session()
    for task, *row_ids in work:
        enqueue_after_commit(session, task, *row_ids)
    dispatch(session)
    _purge(now)
    return sum(len(job) - 1 for job in work)


def _pass_updates(now: datetime, stale: datetime, limit: int) -> list[tuple[str, ...]]:
    """One job for all of them: their pushes go out together, as a bulk job chunk's do."""
    rows = list(db.session.scalars(select(PassUpdate.id).where(
        PassUpdate.delivery_state == "pending", PassUpdate.created_at >= now - GIVE_UP_AFTER,
        _due(PassUpdate, now, stale)).order_by(PassUpdate.created_at).limit(limit)))
    return [("deliver_pass_updates", *rows)] if rows else []


def _google_objects(now: datetime, stale: datetime, limit: int) -> list[tuple[str, ...]]:
    rows = db.session.scalars(select(GoogleObject.pass_id).where(
        GoogleObject.state == "pending", GoogleObject.created_at >= now - GIVE_UP_AFTER,
        _due(GoogleObject, now, stale)).order_by(GoogleObject.created_at).limit(limit))
    return [("sync_google_pass", row_id) for row_id in rows]


def _webhook_deliveries(now: datetime, stale: datetime, limit: int) -> list[tuple[str, ...]]:
    """A job per endpoint that has deliveries due."""
    table = WebhookDelivery
    rows = db.session.scalars(select(table.endpoint_id).where(
        *delivery.due(now),
        # A first attempt was enqueued when the row was written: give that job its time.
        or_(table.attempts > 0, table.updated_at <= stale),
    ).group_by(table.endpoint_id).order_by(func.min(table.next_attempt_at)).limit(limit))
    return [(events.DELIVER_TASK, endpoint_id) for endpoint_id in rows]


def _due(table: type[PassUpdate] | type[GoogleObject], now: datetime, stale: datetime):
    """A retry whose time has come, or a first attempt that has not happened for a while."""
    return or_(and_(table.next_attempt_at.is_not(None), table.next_attempt_at <= now),
               and_(table.next_attempt_at.is_(None), table.updated_at <= stale))


def _purge(now: datetime) -> None:
    global _last_purge
    started = time.monotonic()
    if _last_purge is not None and started - _last_purge < PURGE_EVERY:
        return
    _last_purge = started
    old = Event.created_at < now - events.RETENTION
    with transaction() as session:
        # The old events' deliveries first, in ID order (the cascade would take them after
        # their events, in any order): the order every webhook path locks in.
        session.execute(delivery.lock_in_order(
            WebhookDelivery.event_id.in_(select(Event.id).where(old)), for_delete=True))
        session.execute(delete(Event).where(old).execution_options(synchronize_session=False))
    idempotency.purge()
    callbacks.purge_nonces()


register("pass_updates", _pass_updates)
register("google_objects", _google_objects)
register("webhook_deliveries", _webhook_deliveries)
register("bulk_jobs", bulk.stale)
register("messages", messages.due)
