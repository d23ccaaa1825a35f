"""The Google step of pushing a pass update to the wallets: PATCH the object; in `notify` mode add a
`TEXT_AND_NOTIFY` message (plus `notifyPreference` for event tickets) within Google's budget
of 3 notifications per pass per 24 hours, else a plain `TEXT` message and the error
`notification_quota_exceeded`. A void sets `state: INACTIVE`, silently.

`delivery.google.status`: `updated` (Google has the change and a holder has the pass),
`not_saved` (Google has it, nobody saved the pass), `failed`, `skipped`. On 429/5xx the
status stays `pending` with `next_attempt_at` for the sweep, for up to an hour.
"""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy import delete, func, select

from webapp import clock, metrics
from webapp.db.transaction import count_after_commit, transaction
from webapp.domain import definition_read
from webapp.extensions import db
from webapp.models import GoogleNotification, GoogleObject, Pass, PassUpdate
from webapp.services.google import sync
from webapp.services.insights import record as insights
from webapp.wallets.google import client as google_client
from webapp.wallets.google import objects

BUDGET = 3
WINDOW = timedelta(hours=24)
RETRY_FOR = timedelta(hours=1)
RETRY_DELAYS = (5, 30, 120, 300, 600)
MAX_MESSAGES = 10
QUOTA = "notification_quota_exceeded"


def push(record: PassUpdate) -> None:
    """Run the Google step of an update (status `pending` on entry)."""
    item = db.session.get(Pass, record.pass_id)
    if item is None or not item.google:
        _finish(record, "skipped")
        return
    written = sync.ensure_written(item)
    row = written.row
    if row.state == "failed":
        _finish(record, "failed", error=_error(row.reason or "wallet_rejected", row.error))
        return
    if row.state != "written" or written.identity is None:
        _later(record, row.reason or "wallet_unavailable", row.error)
        return
    if written.just_written:  # the object was missing: it now has the current values
        _finish(record, "not_saved")
        return
    reserved = False
    try:
        reserved = _wants_notification(record) and _reserve(item.id, record.id)
        _push(record, item, written, reserved)
    except google_client.GoogleWalletError as exc:
        if reserved:
            _release(record.pass_id, record.id)
        _failed(record, row, exc)


def _push(record: PassUpdate, item: Pass, written: sync.Written, reserved: bool
          ) -> None:
    row, definition = written.row, written.definition
    wallet = sync.wallet_client(written.identity)  # type: ignore[arg-type]
    if record.kind == "void":
        body: dict[str, Any] = {"state": "INACTIVE"}  # no notifyPreference: silent
    else:
        body = objects.patch_body(sync.object_body(item, definition, row.class_id or "",
                                                   row.object_id or ""))
        # Generic objects have none; a message notifies by itself (the object is unchanged).
        if reserved and written.template_type != "generic" and record.kind == "update":
            body["notifyPreference"] = "NOTIFY_ON_UPDATE"
        if record.kind == "erase":  # earlier messages quote the holder's values
            body["messages"] = []
    try:
        resource = wallet.patch(row.kind or "genericObject", row.object_id or "", body)
    except google_client.GoogleWalletError as exc:
        if exc.status != 404:
            raise
        sync.write(item, row, written.identity, definition)  # type: ignore[arg-type]
        _finish(record, "not_saved", release=reserved)
        return
    if not (resource.get("hasUsers") or row.wallet_state == "saved"):
        _finish(record, "not_saved", release=reserved)
        return
    if not _wants_notification(record):
        _finish(record, "updated")
        return
    _message(record, wallet, row, resource, definition, reserved)


def _message(record: PassUpdate, wallet: google_client.WalletClient, row: GoogleObject,
             resource: dict[str, Any], definition: dict[str, Any], reserved: bool) -> None:
    text = _sent(record)[1] if record.kind == "message" else summary(record, definition)
    _prune(wallet, row, resource)
    kind = "TEXT_AND_NOTIFY" if reserved else "TEXT"
    try:
        wallet.add_message(row.kind or "genericObject", row.object_id or "",
                           _message_body(record, definition, kind))
    except google_client.GoogleWalletError as exc:
        if not (reserved and _is_quota(exc)):
            raise
        # Google counted otherwise (another sender): tell it plainly
        _release(record.pass_id, record.id)
        reserved = False
        wallet.add_message(row.kind or "genericObject", row.object_id or "",
                           _message_body(record, definition, "TEXT"))
    error = None if reserved else _error(QUOTA, "Google allows 3 notifications per pass per "
                                         "24 hours; the change was shown without one.")
    _finish(record, "updated", message=text, error=error, notified=reserved)


def _message_body(record: PassUpdate, definition: dict[str, Any], kind: str) -> dict[str, Any]:
    """The message in the template's default language, and in its other languages as the
    message's localized header and body (`sync.in_languages`); a message to holders
    (kind `message`) as its sender wrote it."""
    if record.kind == "message":
        header, body = _sent(record)
        return objects.message(record.id, header, body, kind)
    def build(local: dict[str, Any]) -> dict[str, Any]:
        shown = record if local is definition else SimpleNamespace(
            changes=_relabelled(record.changes or [], local))
        header = str(local.get("organizationName") or "Update")
        return objects.message(record.id, header, summary(shown, local), kind)  # type: ignore[arg-type]

    return sync.in_languages(definition, build)


def _relabelled(changes: list[dict[str, Any]], definition: dict[str, Any]
                ) -> list[dict[str, Any]]:
    """The changes with each field's label as `definition` (a translated one) says it."""
    labels = {f.get("key"): f.get("label") for _group, f in definition_read.fields(definition)}
    return [{**change, "label": labels.get(change.get("key")) or change.get("label")}
            for change in changes]


def summary(record: PassUpdate, definition: dict[str, Any]) -> str:
    """The message text: each changed field's change message, else `<label>: <value>`."""
    messages = {f.get("key"): f.get("changeMessage")
                for group in ((definition.get("config") or {}).get("fields") or {}).values()
                if isinstance(group, list) for f in group if isinstance(f, dict)}
    lines = []
    for change in record.changes or []:
        to = change.get("to")
        template = messages.get(change.get("key"))
        if to is None:
            lines.append(f"{change.get('label')}: -")
        elif template:
            lines.append(str(template).replace("%@", str(to)))
        else:
            lines.append(f"{change.get('label')}: {to}")
    return "\n".join(lines) or "Your pass was updated."


def _prune(wallet: google_client.WalletClient, row: GoogleObject,
           resource: dict[str, Any]) -> None:
    """Keep room for one more message (Google keeps at most 10 per object)."""
    messages = resource.get("messages") or []
    if len(messages) >= MAX_MESSAGES:
        wallet.patch(row.kind or "genericObject", row.object_id or "",
                     {"messages": messages[-(MAX_MESSAGES - 1):]})


def _sent(record: PassUpdate) -> tuple[str, str]:
    """A message update's header and body (its change: the header as label, body as `to`)."""
    change = (record.changes or [{}])[0]
    return str(change.get("label") or ""), str(change.get("to") or "")


def _wants_notification(record: PassUpdate) -> bool:
    return record.kind in ("update", "message") and record.notification_mode == "notify"


def _is_quota(exc: google_client.GoogleWalletError) -> bool:
    return exc.status == 429 or "quota" in f"{exc.reason} {exc.message}".lower()


def _reserve(pass_id: str, update_id: str) -> bool:
    """Take one of the pass's 3 notifications per 24 hours, if one is left."""
    now = clock.now()
    with transaction() as session:
        session.execute(select(GoogleObject.pass_id).where(GoogleObject.pass_id == pass_id)
                        .with_for_update())  # one reservation at a time per pass
        if session.scalar(select(GoogleNotification.id).where(  # (the pass's index)
                GoogleNotification.pass_id == pass_id, GoogleNotification.update_id == update_id)):
            return True  # this update reserved already (a retried push)
        used = session.scalar(select(func.count()).select_from(GoogleNotification).where(
            GoogleNotification.pass_id == pass_id, GoogleNotification.sent_at > now - WINDOW)) or 0
        if used >= BUDGET:
            return False
        session.add(GoogleNotification(pass_id=pass_id, update_id=update_id, sent_at=now))
    return True


def _release(pass_id: str, update_id: str) -> None:
    """Give back the update's reservation (`_reserve`'s)."""
    with transaction() as session:
        session.execute(delete(GoogleNotification).where(
            GoogleNotification.pass_id == pass_id, GoogleNotification.update_id == update_id))


def budget_left(pass_id: str) -> int:
    """Notifications the pass may still send in the current 24 hours."""
    used = db.session.scalar(select(func.count()).select_from(GoogleNotification).where(
        GoogleNotification.pass_id == pass_id,
        GoogleNotification.sent_at > clock.now() - WINDOW))
    return max(0, BUDGET - (used or 0))


def _failed(record: PassUpdate, row: GoogleObject, exc: google_client.GoogleWalletError
            ) -> None:
    code = sync.reason_for(exc)
    if exc.transient and clock.now() - record.created_at < RETRY_FOR:
        _later(record, code, exc.message)
        return
    _finish(record, "failed", error=_error(code, exc.message))


def _later(record: PassUpdate, code: str, message: str | None) -> None:
    """Leave the step pending and say when the sweep should try again."""
    if clock.now() - record.created_at >= RETRY_FOR:
        _finish(record, "failed", error=_error(code, message))
        return
    delay = timedelta(seconds=RETRY_DELAYS[min(record.attempts, len(RETRY_DELAYS) - 1)])
    when = clock.now() + delay
    with transaction() as session:
        count_after_commit(session, metrics.GOOGLE_PUSHES.labels(metrics.RETRY).inc)
        record.attempts += 1
        if record.next_attempt_at is None or record.next_attempt_at <= clock.now() \
                or when < record.next_attempt_at:
            record.next_attempt_at = when
        record.google_error = _error(code, message)
        record.updated_at = clock.now()


def _finish(record: PassUpdate, status: str, *, message: str | None = None,
            error: dict[str, Any] | None = None, release: bool = False,
            notified: bool | None = None) -> None:
    if release:
        _release(record.pass_id, record.id)
    with transaction() as session:
        insights.update_finished(session, record, "google", record.google_status, status)
        count_after_commit(session, metrics.GOOGLE_PUSHES.labels(status).inc)
        record.google_status, record.google_message, record.google_error = status, message, error
        record.google_notified = notified
        record.updated_at = clock.now()  # `outbox.pass_updates` marks it done once both are


def _error(code: str, message: str | None) -> dict[str, Any]:
    return {"code": code, "message": (message or code.replace("_", " "))[:300]}
