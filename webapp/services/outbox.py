"""The outbox: work that must happen after a change is written as rows in the same
transaction as the change, then handed to the job queue once the transaction commits.

A lost job loses nothing: the rows stay pending and the periodic sweep hands them over
again. Services record work here; `create_app()` connects the dispatcher to `jobs.queue`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from webapp import ids
from webapp.extensions import db
from webapp.models import GoogleObject, Pass, PassUpdate
from webapp.services import _rows, _tx, event_data, events, google_sync

Dispatcher = Callable[[str, str], None]
_dispatcher: Dispatcher | None = None
_KEY = "outbox"


def set_dispatcher(dispatcher: Dispatcher | None) -> None:
    """Connect the queue: `dispatcher(task_name, id)` runs a job for a row."""
    global _dispatcher
    _dispatcher = dispatcher


def later(session: Session, task: str, row_id: str) -> None:
    """Record work for a row; `dispatch()` hands it to the queue after the commit."""
    session.info.setdefault(_KEY, []).append((task, row_id))


def dispatch(session: Session | None = None) -> None:
    """Enqueue the work recorded so far (not yet while a request's unit holds it open: its
    commit dispatches). Every commit of a session that recorded work calls this itself
    (`_committed`): only work recorded outside a transaction (the sweep) needs a call."""
    if _tx.unit_open():
        return
    work = (session or db.session()).info.pop(_KEY, None)
    if not work or _dispatcher is None:
        return
    for task, row_id in work:
        _dispatcher(task, row_id)


@sa_event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    """Whoever commits a transaction that recorded work hands it over (one listener for
    every session, registered once: listening per session cost every request)."""
    if session.info.get(_KEY):
        dispatch(session)


def pass_issued(session: Session, item: Pass) -> GoogleObject | None:
    """A new pass (its row written): its Google class and object are written by a job after
    the commit (Apple wallets fetch the pass when the holder adds it).

    Returns the pass's Google row unless a job may have changed it already (it has not
    before the commit of a request's unit).
    """
    final = None
    if item.google:
        row, needs_job = google_sync.new_row(item)
        _rows.insert(session, row, track=False)
        if needs_job:
            later(session, "sync_google_pass", item.id)
        if not needs_job or _tx.unit_open():  # (a unit's jobs start after its commit)
            final = row
    _pass_event(session, item, "pass.created")
    return final


def _record(session: Session, item: Pass, kind: str, mode: str, wallet_changed: bool,
            changes: list[dict[str, Any]]) -> PassUpdate:
    apple = "pending" if item.apple and wallet_changed else "skipped"
    google = "pending" if item.google and wallet_changed else "skipped"
    record = PassUpdate(
        id=ids.new_id("pupd"), pass_id=item.id, organization_id=item.organization_id,
        environment=item.environment, kind=kind, notification_mode=mode,
        wallet_changed=wallet_changed, changes=changes, pass_version=item.version,
        apple_status=apple, apple_devices=0, google_status=google,
        delivery_state="pending" if "pending" in (apple, google) else "done",
        attempts=0, created_at=item.updated_at, updated_at=item.updated_at,
    )
    session.add(record)
    if record.delivery_state == "pending":
        later(session, "deliver_pass_update", record.id)
    else:  # nothing for any wallet to do: delivered as it is recorded
        events.emit(session, organization_id=item.organization_id,
                    environment=item.environment, type="pass_update.delivered",
                    data={"object": event_data.pass_update_object(record)})
    return record


def pass_updated(session: Session, item: Pass, changes: list[dict[str, Any]], mode: str,
                 wallet_changed: bool) -> PassUpdate:
    """Record an update and its pending delivery to each wallet the pass was issued for."""
    record = _record(session, item, "update", mode, wallet_changed, changes)
    _pass_event(session, item, "pass.updated", passUpdateId=record.id,
                changes=event_data.changes(record))
    return record


def pass_voided(session: Session, item: Pass) -> PassUpdate:
    """Record the voiding: wallets are told silently."""
    record = _record(session, item, "void", "silent", True, [])
    _pass_event(session, item, "pass.voided", passUpdateId=record.id)
    return record


def _pass_event(session: Session, item: Pass, type_: str, **extra: Any) -> None:
    events.emit(session, organization_id=item.organization_id, environment=item.environment,
                type=type_, data=events.pass_data(session, item, **extra))
