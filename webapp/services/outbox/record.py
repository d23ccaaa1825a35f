"""The outbox: work that must happen after a change is written as rows in the same
transaction as the change, then handed to the job queue once the transaction commits.

A lost job loses nothing: the rows stay pending and the periodic sweep hands them over
again. The hand-over itself is `webapp.db.transaction`'s (`enqueue_after_commit`).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from webapp import ids
from webapp.db.transaction import enqueue_after_commit, insert_all
from webapp.models import GoogleObject, Pass, PassUpdate
from webapp.services.google import sync
from webapp.services.insights import record as insights
from webapp.services.webhooks import event_data, events


def passes_issued(session: Session, items: list[Pass]) -> dict[str, GoogleObject]:
    """New passes of one organization and environment (their rows added): their Google
    classes and objects are written by a job after the commit (Apple wallets fetch a pass when
    the holder adds it). One statement per table; returns their Google rows by pass ID."""
    if not items:
        return {}
    rows = {}
    for item in items:
        if item.google:
            row, needs_job = sync.new_row(item)
            rows[item.id] = row
            if needs_job:
                enqueue_after_commit(session, "sync_google_pass", item.id)
    insert_all(session, list(rows.values()))
    events.emit_all(session, organization_id=items[0].organization_id,
                    environment=items[0].environment, type="pass.created",
                    datas=[events.pass_data(session, item) for item in items])
    # The day's counts once per template, wallets and day, not once per pass.
    alike: dict[tuple[str, bool, bool, date], list[Pass]] = {}
    for item in items:
        alike.setdefault((item.template_id, item.apple, item.google, item.created_at.date()),
                         []).append(item)
    for group in alike.values():
        insights.issued(session, group[0], len(group))
    return rows


def _new_record(item: Pass, kind: str, mode: str, wallet_changed: bool,
                changes: list[dict[str, Any]], message_id: str | None = None) -> PassUpdate:
    apple = "pending" if item.apple and wallet_changed else "skipped"
    google = "pending" if item.google and wallet_changed else "skipped"
    return PassUpdate(
        id=ids.new_id("pupd"), pass_id=item.id, organization_id=item.organization_id,
        environment=item.environment, kind=kind, message_id=message_id, notification_mode=mode,
        wallet_changed=wallet_changed, changes=changes, pass_version=item.version,
        apple_status=apple, apple_devices=0, google_status=google,
        delivery_state="pending" if "pending" in (apple, google) else "done",
        attempts=0, created_at=item.updated_at, updated_at=item.updated_at,
    )


def _record(session: Session, item: Pass, kind: str, mode: str, wallet_changed: bool,
            changes: list[dict[str, Any]]) -> PassUpdate:
    record = _new_record(item, kind, mode, wallet_changed, changes)
    session.add(record)
    _hand_over(session, [record])
    return record


def _hand_over(session: Session, records: list[PassUpdate]) -> None:
    """Queue the delivery of the pending updates (one organization and environment); an
    update with nothing pending for any wallet is delivered as it is recorded."""
    pending = [record.id for record in records if record.delivery_state == "pending"]
    if len(pending) == 1:
        enqueue_after_commit(session, "deliver_pass_update", pending[0])
    elif pending:  # one job for a bulk job's chunk: the queue holds hundreds, not 100,000
        enqueue_after_commit(session, "deliver_pass_updates", *pending)
    events.emit_all(session, organization_id=records[0].organization_id,
                    environment=records[0].environment, type="pass_update.delivered",
                    datas=[{"object": event_data.pass_update_object(record)}
                           for record in records if record.delivery_state == "done"])


def pass_updated(session: Session, item: Pass, changes: list[dict[str, Any]], mode: str,
                 wallet_changed: bool) -> PassUpdate:
    """Record an update and its pending delivery to each wallet the pass was issued for."""
    return passes_updated(session, [(item, changes, mode, wallet_changed)])[0]


def passes_updated(session: Session,
                   updates: list[tuple[Pass, list[dict[str, Any]], str, bool]],
                   kind: str = "update", message_id: str | None = None) -> list[PassUpdate]:
    """`pass_updated` for passes of one organization and environment (item, changes,
    notification mode, wallet changed), with one statement per table; `kind` `message`
    records a message's text reaching the passes (`message_id`)."""
    if not updates:
        return []
    records = [_new_record(item, kind, mode, wallet_changed, changes, message_id)
               for item, changes, mode, wallet_changed in updates]
    insert_all(session, records)
    _hand_over(session, records)
    scope = {"organization_id": updates[0][0].organization_id,
             "environment": updates[0][0].environment}
    events.emit_all(session, **scope, type="pass.updated", datas=[
        events.pass_data(session, item, passUpdateId=record.id,
                         changes=event_data.changes(record))
        for (item, *_), record in zip(updates, records, strict=True)])
    return records


def pass_voided(session: Session, item: Pass) -> PassUpdate:
    """Record the voiding: wallets are told silently."""
    record = _record(session, item, "void", "silent", True, [])
    _pass_event(session, item, "pass.voided", passUpdateId=record.id)
    return record


def pass_erased(session: Session, item: Pass) -> PassUpdate:
    """Record an erasure: a silent update of both wallets (the void only marks Google's
    object inactive; this writes the erased content over the holder's), and `pass.erased`."""
    record = _record(session, item, "erase", "silent", True, [])
    _pass_event(session, item, "pass.erased", passUpdateId=record.id)
    return record


def _pass_event(session: Session, item: Pass, type_: str, **extra: Any) -> None:
    events.emit(session, organization_id=item.organization_id, environment=item.environment,
                type=type_, data=events.pass_data(session, item, **extra))
