"""Erasing a pass's holder (issue 33): the pass is voided in both wallets, then its holder's
name, email, per-pass values and images, tags, barcode value and externalId are taken out of
every row the service keeps them in ("Erasure" in docs/decisions.md).

Everything runs in one transaction (the request's): the void's wallet deliveries start
after the commit, so Apple and Google fetch the erased pass, never the holder's data.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from sqlalchemy import Text, cast, or_, select
from sqlalchemy import delete as sql_delete
from sqlalchemy import update as sql_update
from sqlalchemy.orm import Session

from webapp import clock
from webapp.db import idempotency
from webapp.db.transaction import transaction
from webapp.domain import redact
from webapp.domain import search as search_rules
from webapp.errors import Conflict
from webapp.models import (
    BalanceTransaction,
    BulkJob,
    BulkJobItem,
    DownloadLink,
    Enrollment,
    Event,
    GoogleObject,
    Message,
    Pass,
    PassEmail,
    PassTag,
    PassUpdate,
    Redemption,
    Upload,
)
from webapp.services.context import Context
from webapp.services.outbox import record as outbox_record
from webapp.services.passes import changes, queries
from webapp.services.webhooks import events

ERASED_EMAIL = {"code": "holder_erased", "message": "The holder's data was erased."}


def erase(ctx: Context, pass_id: str) -> Pass:
    """Void the pass if it is active and erase its holder's data everywhere; the erased
    pass. Erasing again finds nothing left and answers the same pass (one `pass.erased`).

    :raises NotFound: no such pass in this organization and environment.
    """
    item = queries.find(ctx, pass_id)
    with transaction() as session:
        # One writer of the pass at a time (PostgreSQL; SQLite has one writer anyway): a
        # second erasure waits here, then finds the pass erased.
        session.execute(select(Pass.id).where(Pass.id == item.id).with_for_update())
        session.refresh(item)
        if item.status == "active":
            with contextlib.suppress(Conflict):  # voided meanwhile: nothing to void
                changes.void(ctx, pass_id)
        secrets = _secrets(session, item)
        first, external_id = item.erased_at is None, item.external_id
        _erase_pass(session, item, first)
        _erase_history(session, ctx, item, secrets)
        _erase_bulk_items(session, ctx, secrets, item, external_id)
        if first:
            outbox_record.pass_erased(session, item)
    return queries.shown_pass(item)


def _secrets(session: Session, item: Pass) -> frozenset[str]:
    """Every personal value the pass has or had: its own, its updates', its bulk items'
    (an update's old value is in no current column) and its balance movements' notes."""
    olds = session.scalars(select(PassUpdate.changes).where(PassUpdate.pass_id == item.id))
    inputs = session.scalars(select(BulkJobItem.input).where(BulkJobItem.pass_id == item.id))
    personal = [c.get(side) for record in olds for c in record or [] for side in ("from", "to")]
    notes = session.execute(select(BalanceTransaction.reason, BalanceTransaction.reference)
                            .where(BalanceTransaction.pass_id == item.id))
    personal += [note for row in notes for note in row]
    for given in inputs:
        personal += [given.get(key) for key in redact.PERSONAL_KEYS]
        personal.append(given.get("fieldValues"))
    return redact.secrets_of(item.holder_name, item.holder_email, item.barcode_value,
                             item.external_id, item.field_values, personal)


def _erase_pass(session: Session, item: Pass, first: bool) -> None:
    now = clock.now()
    values: dict[str, Any] = {
        "holder_name": None, "holder_email": None, "field_values": {}, "barcode_value": None,
        "external_id": None, "images": None, "tags": None, "updated_at": now,
        "search_text": search_rules.search_text(None, None, item.short_id)}
    if first:  # a new version for the wallets (`erase` records its update)
        values.update(erased_at=now, wallet_updated_at=now, version=Pass.version + 1)
    session.execute(sql_update(Pass).where(Pass.id == item.id).values(values)
                    .execution_options(synchronize_session=False))
    session.execute(sql_delete(PassTag).where(PassTag.pass_id == item.id)
                    .execution_options(synchronize_session=False))
    # The sign-up's email hash goes too: the person may sign up again, as someone new.
    session.execute(sql_delete(Enrollment).where(Enrollment.pass_id == item.id)
                    .execution_options(synchronize_session=False))
    session.refresh(item)


def _erase_history(session: Session, ctx: Context, item: Pass, secrets: frozenset[str]
                   ) -> None:
    def clean(value: Any) -> Any:
        return redact.scrub(value, secrets)

    for record in session.scalars(select(PassUpdate).where(PassUpdate.pass_id == item.id)):
        # (a message's change is labelled with its header, which may name the holder)
        record.changes = [{**c, "from": None, "to": None, "label": _label(c.get("label"), secrets)}
                          for c in record.changes or []]
        record.google_message = None
        record.apple_error, record.google_error = clean(record.apple_error), \
            clean(record.google_error)
    for email in session.scalars(select(PassEmail).where(PassEmail.pass_id == item.id)):
        email.to_address = ""
        email.error = ERASED_EMAIL if email.status == "queued" else clean(email.error)
        email.status = "failed" if email.status == "queued" else email.status
        email.next_attempt_at = None
    session.execute(sql_update(Redemption).where(Redemption.pass_id == item.id)
                    .values(location=None).execution_options(synchronize_session=False))
    session.execute(sql_update(BalanceTransaction).where(BalanceTransaction.pass_id == item.id)
                    .values(reason=None, reference=None)  # a till's note may name the holder
                    .execution_options(synchronize_session=False))
    session.execute(sql_update(GoogleObject).where(GoogleObject.pass_id == item.id)
                    .values(error=None).execution_options(synchronize_session=False))
    session.execute(sql_update(DownloadLink).where(
        DownloadLink.pass_id == item.id, DownloadLink.revoked_at.is_(None))
        .values(revoked_at=clock.now()).execution_options(synchronize_session=False))
    for event in events.about_pass(session, ctx, item.id):
        event.data = clean(event.data)
    if item.message:  # the last message, on the pass's back (staff may have named the holder)
        item.message = {key: redact.scrub_text(text, secrets)
                        for key, text in item.message.items()}
    _erase_messages(session, ctx, item.id, secrets)
    idempotency.rewrite_answers(session, ctx, item.id,
                                lambda body: _answer(body, item.id, secrets))
    for upload in session.scalars(select(Upload).where(
            Upload.organization_id == ctx.organization_id,
            Upload.environment == ctx.environment)):
        if redact.mentions(upload.data.decode(errors="replace"), secrets):
            session.delete(upload)  # an import not finished: uploaded again if wanted


def _label(label: Any, secrets: frozenset[str]) -> Any:
    return redact.scrub_text(label, secrets) if isinstance(label, str) else label


def _erase_messages(session: Session, ctx: Context, pass_id: str,
                    secrets: frozenset[str]) -> None:
    """Messages whose audience names the pass by ID, or was a search naming the holder (staff
    typed their email): the holder's values are cut out of their audience, header and body.
    The searches' `message.sent` events too (those naming the pass by ID are its events)."""
    scope = {"organization_id": ctx.organization_id, "environment": ctx.environment}
    for message in session.scalars(select(Message).filter_by(**scope).where(or_(
            cast(Message.audience, Text).contains('"search"'),
            cast(Message.audience, Text).contains(pass_id, autoescape=True)))):
        if pass_id in (message.audience.get("passIds") or []) or redact.mentions(
                json.dumps(message.audience, ensure_ascii=False), secrets):
            message.audience = redact.scrub(message.audience, secrets)
            message.header = redact.scrub_text(message.header, secrets)
            message.body = redact.scrub_text(message.body, secrets)
    for event in session.scalars(select(Event).filter_by(type="message.sent", **scope).where(
            cast(Event.data, Text).contains('"search"'))):
        if redact.mentions(json.dumps(event.data, ensure_ascii=False), secrets):
            event.data = redact.scrub(event.data, secrets)


def _erase_bulk_items(session: Session, ctx: Context, secrets: frozenset[str], item: Pass,
                      external_id: str | None) -> None:
    """The pass's items; the items naming its externalId in jobs of its template (an
    externalId is unique per template: a refused duplicate); and the items never applied
    (failed, canceled: they name no pass) that hold one of its values. Each read through an
    index (migration 0026). A pending item is left: it is applied as it was sent."""
    jobs = select(BulkJob.id).where(BulkJob.organization_id == ctx.organization_id,
                                    BulkJob.environment == ctx.environment)
    found = list(session.scalars(select(BulkJobItem).where(
        BulkJobItem.job_id.in_(jobs), BulkJobItem.pass_id == item.id)))
    if external_id is not None:
        found += session.scalars(select(BulkJobItem).where(
            BulkJobItem.job_id.in_(jobs.where(BulkJob.template_id == item.template_id)),
            BulkJobItem.external_id == external_id))
    for row in session.scalars(select(BulkJobItem).where(
            BulkJobItem.job_id.in_(jobs), BulkJobItem.pass_id.is_(None),
            BulkJobItem.status.in_(("failed", "canceled")))):
        given = json.dumps([row.external_id, row.input, row.error], ensure_ascii=False)
        if redact.mentions(given, secrets) or row.external_id in secrets:
            found.append(row)
    for row in found:
        row.external_id = None
        row.input = redact.scrub(row.input, secrets)
        row.error = redact.scrub(row.error, secrets)
    session.flush()


def _answer(body: str, pass_id: str, secrets: frozenset[str]) -> str:
    """A stored answer without the holder's data, if it holds any."""
    if pass_id not in body and not redact.mentions(body, secrets):
        return body
    try:
        parsed = json.loads(body)
    except ValueError:  # a dashboard page or redirect: text
        return str(redact.scrub_text(body, secrets))
    return json.dumps(redact.scrub(parsed, secrets), separators=(",", ":"))
