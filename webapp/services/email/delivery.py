"""Sending one queued email: the `send_pass_email` job.

The row is claimed first (a lease, `locked_until`), so two workers never send one email at
the same time and a dead worker's hold runs out. The lease outlasts the slowest conversation
the SMTP timeout allows, so it never runs out under a send still in progress. The attempt's
outcome is recorded in one transaction with its event: `sent` (`pass.email_sent`), a retry
on RETRY_SCHEDULE for a transient failure (4xx answer, connection trouble), or `failed` with
the reason (`pass.email_failed`). The sweep enqueues emails whose retry is due, or whose
job was lost. Running the job twice, or for an email that is not due, does nothing.

A server that accepted the message but whose answer never reached us (or a worker killed
between the two) leaves the email queued: it is sent again when the lease runs out. SMTP
has no way to ask whether a message arrived; its Message-ID stays the same.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update

from webapp import clock, ids, metrics
from webapp.db.transaction import changed_rows, count_after_commit, end_read, transaction
from webapp.errors import Unprocessable
from webapp.extensions import db
from webapp.models import Organization, Pass, PassEmail
from webapp.services.email import message, sending, smtp, wire
from webapp.services.outbox import sweep
from webapp.services.passes import views
from webapp.services.webhooks import events

# After attempt n fails for a passing reason, attempt n+1 comes RETRY_SCHEDULE[n-1] later:
# 5 attempts over about 42 minutes, then `failed`.
RETRY_SCHEDULE = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10),
                  timedelta(minutes=30))
# Some ten steps of the SMTP conversation at most, each within smtp.TIMEOUT.
LEASE = timedelta(seconds=12 * smtp.TIMEOUT)

log = logging.getLogger("webapp.email")


def deliver(email_id: str) -> smtp.Outcome | None:
    """Make the email's next attempt if it is due and nobody else holds it; the outcome,
    or None when no attempt was made."""
    if not ids.has_prefix(email_id, "eml"):
        return None
    attempts = _claim(email_id)
    if attempts is None:
        return None
    try:
        setup = sending.sender()
    except Unprocessable as exc:  # the settings went away after the email was queued
        outcome = smtp.Outcome("email_not_configured", exc.message, retry=True)
    else:
        letter, outcome = _letter(email_id, setup.address)
        end_read()  # hold no snapshot or connection while the SMTP server thinks
        if letter is not None:
            outcome = smtp.send(setup.server, message.compose(letter), setup.address,
                                letter.to)
    _record(email_id, attempts, outcome)
    log.info("email %s attempt %d: %s", email_id, attempts + 1, outcome.code or "sent")
    return outcome


def due(now: datetime) -> tuple[Any, ...]:
    """An email that is queued, due, and held by nobody."""
    return (PassEmail.status == "queued", PassEmail.next_attempt_at <= now,
            or_(PassEmail.locked_until.is_(None), PassEmail.locked_until <= now))


def _claim(email_id: str) -> int | None:
    """Hold the email for one attempt: its attempts so far, or None when it is not due or
    someone else holds it."""
    now = clock.now()
    found = db.session.scalar(select(PassEmail.attempts).where(PassEmail.id == email_id,
                                                               *due(now)))
    end_read()
    if found is None:  # sent, failed, not due or held: no write lock needed
        return None
    with transaction() as session:
        won = changed_rows(
            session,
            update(PassEmail).where(PassEmail.id == email_id, *due(now))
            .values(locked_until=now + LEASE).execution_options(synchronize_session=False))
    return found if won == 1 else None


def _letter(email_id: str, sender: str) -> tuple[message.Letter | None, smtp.Outcome]:
    """What the email says, read now; or why it is not sent (the pass was voided)."""
    row = db.session.get(PassEmail, email_id, populate_existing=True)
    item = db.session.get(Pass, row.pass_id) if row else None
    if row is None or item is None:  # pragma: no cover - deleted with its pass meanwhile
        return None, smtp.Outcome("pass_missing", "The pass no longer exists.")
    if item.status == "voided":
        return None, smtp.Outcome("pass_voided", "The pass was voided before the email "
                                                 "was sent.")
    organization = db.session.get(Organization, item.organization_id)
    url = views.distribution_url(item.short_id)
    letter = message.Letter(
        email_id=row.id, to=row.to_address, sender=sender,
        organization=organization.name if organization else "",
        holder_name=item.holder_name, pass_url=url,
        apple_url=f"{url}/apple.pkpass" if item.apple else None,
        google_url=f"{url}/google" if item.google else None, locale=row.locale)
    return letter, smtp.Outcome()


def _record(email_id: str, attempts: int, outcome: smtp.Outcome) -> None:
    """The attempt's outcome, and the event once the email is sent or failed for good."""
    now = clock.now()
    values: dict[str, Any] = {"attempts": attempts + 1, "locked_until": None,
                              "updated_at": now}
    if outcome.ok:
        values.update(status="sent", sent_at=now, error=None, next_attempt_at=None)
    else:
        values["error"] = {"code": outcome.code, "message": outcome.message}
        if outcome.retry and attempts < len(RETRY_SCHEDULE):
            values["next_attempt_at"] = now + RETRY_SCHEDULE[attempts]
        else:
            values.update(status="failed", next_attempt_at=None)
    with transaction() as session:
        won = changed_rows(
            session,
            update(PassEmail).where(PassEmail.id == email_id, PassEmail.status == "queued",
                                    PassEmail.attempts == attempts)
            .values(**values).execution_options(synchronize_session=False))
        if won == 1:
            count_after_commit(session, metrics.EMAILS.labels(
                "pass", values.get("status") or metrics.RETRY).inc)
        if won != 1 or values.get("status") is None:
            return
        row = session.get(PassEmail, email_id, populate_existing=True)
        assert row is not None
        events.emit(session, organization_id=row.organization_id,
                    environment=row.environment,
                    type="pass.email_sent" if outcome.ok else "pass.email_failed",
                    data={"object": wire.email_object(row)})


def _due_for_sweep(now: datetime, stale: datetime, limit: int) -> list[tuple[str, ...]]:
    """Emails whose retry is due, or whose first job has not run for a while (lost)."""
    rows = db.session.scalars(select(PassEmail.id).where(
        *due(now), or_(PassEmail.attempts > 0, PassEmail.updated_at <= stale))
        .order_by(PassEmail.next_attempt_at).limit(limit))
    return [(sending.SEND_TASK, row_id) for row_id in rows]


# The sweep runs through `jobs.tasks`, which imports this module with its task.
sweep.register("pass_emails", _due_for_sweep)
