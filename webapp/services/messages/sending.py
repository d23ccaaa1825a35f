"""Handing a message to its audience, a chunk of passes at a time (the job task
`send_message`), and the sweep's source (`due`): scheduled messages whose time has come, and
sending ones whose job was lost.

Each chunk, in one transaction: the message's cursor moves on (a conditional UPDATE, so two
runs of the job never hand out one chunk twice), and each active pass gets the text as its
next version (`passes.message`: Apple's back field) with a `message` pass update, which the
outbox pushes to both wallets as any update (`outbox/pass_updates`). Voided passes are
counted as skipped. Passes are taken oldest first, so passes issued while a message is sent
may get it too; the audience size is counted when sending begins.
"""

from __future__ import annotations

import time
from datetime import datetime

from sqlalchemy import or_, select
from sqlalchemy import update as sql_update

from webapp import clock
from webapp.db.transaction import changed_rows, transaction
from webapp.errors import Conflict
from webapp.extensions import db
from webapp.models import Message, Pass
from webapp.services.context import Context
from webapp.services.messages import composing, reading, wire
from webapp.services.passes import changes
from webapp.services.passes import queries as pass_queries
from webapp.services.webhooks import events

CHUNK_SIZE = 500
PAUSE_BETWEEN_CHUNKS = 0.01  # seconds: let other writers in (bulk/runner.py says why)
CONFLICT_RETRIES = 5  # a chunk whose passes changed meanwhile is read again


class _Lost(Exception):
    """Another run of the job handed this chunk out first."""


def run(message_id: str) -> None:
    """Start the message if its time has come, then hand it out chunk by chunk; running it
    twice, or for a message not due, does nothing."""
    _start_if_due(message_id)
    conflicts = 0
    while True:
        try:
            more = _turn(message_id)
        except Conflict:  # a pass changed between the chunk's read and write
            conflicts += 1
            if conflicts > CONFLICT_RETRIES:
                return  # the sweep tries again
            continue
        except _Lost:
            return
        if not more:
            return
        time.sleep(PAUSE_BETWEEN_CHUNKS)


def _start_if_due(message_id: str) -> None:
    message = db.session.get(Message, message_id, populate_existing=True)
    now = clock.now()
    if message is None or message.status != "scheduled" or message.send_at is None \
            or message.send_at > now:
        return
    size = composing.audience_size(_context(message), message.audience)
    with transaction() as session:
        changed_rows(session, sql_update(Message).where(
            Message.id == message_id, Message.status == "scheduled")
            .values(status="sending", started_at=now, updated_at=now, audience_size=size)
            .execution_options(synchronize_session=False))


def _turn(message_id: str) -> bool:
    """Hand out the next chunk; whether there is more.

    Read inside the transaction: beginning one expires what was read before it.

    :raises _Lost: another run handed this chunk out.
    :raises Conflict: a pass of the chunk changed meanwhile (nothing was written).
    """
    with transaction() as session:
        message = session.get(Message, message_id, populate_existing=True)
        if message is None or message.status != "sending":
            return False
        cursor, chunk = message.cursor, _next_ids(_context(message), message)
        todo, skipped = _changes(message, chunk)
        done = len(chunk) < CHUNK_SIZE
        now = clock.now()
        # Moves only from the cursor read: a run that read the same one loses here (on
        # PostgreSQL it waits for the row, then finds the cursor moved).
        moved = changed_rows(session, sql_update(Message).where(
            Message.id == message.id, Message.status == "sending",
            Message.cursor.is_(None) if cursor is None else Message.cursor == cursor).values(
            cursor=chunk[-1] if chunk else cursor,
            processed=Message.processed + len(chunk), skipped=skipped, updated_at=now,
            **({"status": "sent", "finished_at": now} if done else {}))
            .execution_options(synchronize_session=False))
        if moved != 1:
            raise _Lost(message.id)
        changes.save_changes(todo, kind="message", message_id=message.id)
        if done:
            session.refresh(message)
            events.emit(session, organization_id=message.organization_id,
                        environment=message.environment, type="message.sent",
                        data={"object": wire.message(reading.shown(message))})
    return not done


def _changes(message: Message, chunk: list[str]
             ) -> tuple[list[changes.Change], dict[str, int]]:
    """The chunk's active passes' changes (the text as their next version), and the
    message's skipped counts with the chunk's voided or missing passes added."""
    found = pass_queries.find_all(_context(message), chunk)
    shown = {"id": message.id, "header": message.header, "body": message.body}
    todo: list[changes.Change] = []
    skipped = dict(message.skipped or {})
    for pass_id in chunk:
        item = found.get(pass_id)
        if item is None or item.status == "voided":
            reason = "pass_not_found" if item is None else "pass_voided"
            skipped[reason] = skipped.get(reason, 0) + 1
            continue
        change = {"key": "pass.message", "label": message.header,
                  "from": (item.message or {}).get("body"), "to": message.body}
        todo.append(changes.Change(item, {"message": shown}, [change], "notify", True))
    return todo, skipped


def _next_ids(ctx: Context, message: Message) -> list[str]:
    """The IDs of the next chunk's passes, oldest first, after the cursor."""
    if "passIds" in message.audience:
        ordered = sorted(message.audience["passIds"])
        after = [p for p in ordered if message.cursor is None or p > message.cursor]
        return after[:CHUNK_SIZE]
    query = composing.audience_query(ctx, message.audience)
    if message.cursor is not None:
        query = query.where(Pass.id > message.cursor)
    return list(db.session.scalars(query.order_by(Pass.id).limit(CHUNK_SIZE)))


def _context(message: Message) -> Context:
    return Context(organization_id=message.organization_id, environment=message.environment,
                   actor="job")


def due(now: datetime, stale_before: datetime, limit: int) -> list[tuple[str, ...]]:
    """The sweep's source: scheduled messages whose time has come, and sending ones that
    made no progress for a while (their job was lost)."""
    rows = db.session.scalars(select(Message.id).where(or_(
        (Message.status == "scheduled") & (Message.send_at <= now),
        (Message.status == "sending") & (Message.updated_at <= stale_before),
    )).order_by(Message.id).limit(limit))
    return [(composing.SEND_TASK, row_id) for row_id in rows]
