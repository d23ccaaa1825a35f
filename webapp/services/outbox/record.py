"""The outbox: work that must happen after a change is written as rows in the same
transaction as the change, then handed to the job queue once the transaction commits.

A lost job loses nothing: the rows stay pending and the periodic sweep hands them over
again. The hand-over itself is `webapp.db.transaction`'s (`enqueue_after_commit`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from webapp import ids
from webapp.db.transaction import enqueue_after_commit, insert_new
from webapp.models import GoogleObject, Pass, PassUpdate
from webapp.services.google import sync
from webapp.services.webhooks import event_data, events


def pass_issued(session: Session, item: Pass) -> GoogleObject | None:
    """A new pass (its row added): its Google class and object are written by a job after
    the commit (Apple wallets fetch the pass when the holder adds it). Returns the pass's
    Google row, if it has one."""
    row = None
    if item.google:
        row, needs_job = sync.new_row(item)
        insert_new(session, row)
        if needs_job:
            enqueue_after_commit(session, "sync_google_pass", item.id)
    _pass_event(session, item, "pass.created")
    return row


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
        enqueue_after_commit(session, "deliver_pass_update", record.id)
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
