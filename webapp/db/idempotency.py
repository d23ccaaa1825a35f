"""Idempotency-Key records (decisions.md section 2).

The `@idempotent` wrapper runs a request in one write transaction: `claim` the key, run the
view, `store` the answer, commit. A change is so never kept without its answer, and an answer
of 500 or above is never stored (the transaction rolls back; a retry runs again). Answers are
encrypted with `vault` (some hold a secret shown once) and kept 24 hours (`purge`).

While the first request with a key runs, a second one is answered `idempotency_key_in_use` at
once instead of waiting for it: on SQLite the key is held from the request's start (`hold`:
writers queue one at a time, so it must not wait behind the writers' lock); on PostgreSQL the
claim takes a transaction-level advisory lock without waiting.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol, cast

from sqlalchemy import Table, bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Session

from webapp import clock, ids, vault
from webapp.db import sqlite
from webapp.db.transaction import changed_rows, transaction
from webapp.errors import IdempotencyKeyInUse, IdempotencyKeyReused
from webapp.models import IdempotencyRecord

RETENTION = timedelta(hours=24)
# Every answer the API writes is far smaller (bodies are at most 1 MiB, definitions 64 KiB,
# issue lists 100 entries): one over this is a bug, and is refused rather than kept for a day.
MAX_STORED_ANSWER = 256 * 1024
_IN_USE = ("A request with this Idempotency-Key is still being processed. "
           "Retry later with the same key.")
_REUSED = ("Keys for idempotent requests can only be used with the same method, path and "
           "body as the first request. Use a new key for a new request.")


class Context(Protocol):
    """Whose key it is: the request's service context (`webapp.services.context.Context`)."""

    @property
    def organization_id(self) -> str: ...
    @property
    def environment(self) -> str: ...
    @property
    def request_id(self) -> str | None: ...


@dataclass(frozen=True)
class Replay:
    """The first request's answer, to send again."""
    status_code: int
    body: str
    request_id: str


@dataclass(frozen=True)
class Claim:
    """A key this request may use: its answer is stored under it."""
    ctx: Context
    key: str
    fingerprint: str


def hold(ctx: Context, key: str) -> Callable[[], None] | None:
    """Hold the key for this request (SQLite); the release, or None where not needed.

    :raises IdempotencyKeyInUse: another request holds it.
    """
    try:
        return sqlite.hold_key(_scope(ctx, key))
    except sqlite.KeyBusy:
        raise IdempotencyKeyInUse(_IN_USE) from None


def claim(session: Session, ctx: Context, key: str, fingerprint: str) -> Claim | Replay:
    """In the request's transaction: the key is new (a `Claim`) or has an answer to replay.

    :raises IdempotencyKeyInUse: the first request with the key is still running.
    :raises IdempotencyKeyReused: the key was used for another request.
    """
    connection = session.connection()  # Core statements: the ORM adds nothing here
    if connection.dialect.name == "postgresql" and not connection.scalar(
            select(func.pg_try_advisory_xact_lock(_advisory_key(ctx, key)))):
        raise IdempotencyKeyInUse(_IN_USE)
    record = connection.execute(_RECORD, {"organization_id": ctx.organization_id,
                                          "environment": ctx.environment, "key": key}).first()
    if record is not None and clock.now() - record.created_at > RETENTION:
        connection.execute(delete(IdempotencyRecord).where(IdempotencyRecord.id == record.id))
    elif record is not None:  # (not purged yet: the key counts as new)
        if record.fingerprint != fingerprint:
            raise IdempotencyKeyReused(_REUSED)
        return Replay(record.status_code or 200, _open(record.body), record.request_id)
    return Claim(ctx, key, fingerprint)


def store(session: Session, claimed: Claim, status_code: int, body: str,
          pass_id: str | None = None) -> None:
    """Keep the request's answer (under 500) in its transaction; `pass_id`: the one pass
    whose data a successful answer holds, if it is about one (`rewrite_answers`).

    :raises ValueError: the answer is over `MAX_STORED_ANSWER` bytes (the request fails with
        a 500 and its transaction rolls back).
    """
    if len(body) > MAX_STORED_ANSWER:
        raise ValueError(f"an answer of {len(body):,} characters is over MAX_STORED_ANSWER")
    now = clock.now()
    ctx = claimed.ctx
    session.connection().execute(_INSERT_RECORD, {
        "id": ids.new_id("idem"), "organization_id": ctx.organization_id,
        "environment": ctx.environment, "key": claimed.key, "fingerprint": claimed.fingerprint,
        "request_id": ctx.request_id or "", "state": "completed", "status_code": status_code,
        "body": vault.encrypt(body.encode()).decode() if body else "", "pass_id": pass_id,
        "created_at": now, "locked_at": now})


# Built once: every idempotent request runs them.
_RECORD = select(IdempotencyRecord.id, IdempotencyRecord.fingerprint,
                 IdempotencyRecord.status_code, IdempotencyRecord.body,
                 IdempotencyRecord.request_id, IdempotencyRecord.created_at).where(
    IdempotencyRecord.organization_id == bindparam("organization_id"),
    IdempotencyRecord.environment == bindparam("environment"),
    IdempotencyRecord.key == bindparam("key"))
_INSERT_RECORD = insert(cast(Table, IdempotencyRecord.__table__))


def _open(stored: str | None) -> str:
    return vault.decrypt(stored.encode()).decode() if stored else ""


def _scope(ctx: Context, key: str) -> str:
    return f"{ctx.organization_id}\x1f{ctx.environment}\x1f{key}"


def _advisory_key(ctx: Context, key: str) -> int:
    """The key's PostgreSQL advisory lock: a signed 64-bit number drawn from its scope."""
    digest = hashlib.sha256(_scope(ctx, key).encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def purge(older_than: timedelta = RETENTION) -> int:
    """Delete records past retention; returns how many."""
    with transaction() as session:
        purged = changed_rows(session, delete(IdempotencyRecord).where(
            IdempotencyRecord.created_at < clock.now() - older_than))
    return purged


def rewrite_answers(session: Session, ctx: Context, pass_id: str,
                    change: Callable[[str], str]) -> int:
    """In the caller's transaction, pass the stored answers that may hold a pass's data
    through `change` (an erasure takes a holder's data out) and keep what it returns; returns
    how many answers changed. Those are the scope's answers about the pass and those about no
    one pass (errors, bulk jobs, messages, forms, answers stored before migration 0026): each
    must be opened. Both are read through the index of `(pass_id, scope)`."""
    connection = session.connection()
    scope = (IdempotencyRecord.organization_id == ctx.organization_id,
             IdempotencyRecord.environment == ctx.environment)
    columns = (IdempotencyRecord.id, IdempotencyRecord.body)
    rows = [*connection.execute(select(*columns).where(*scope,
                                                       IdempotencyRecord.pass_id == pass_id)),
            *connection.execute(select(*columns).where(*scope,
                                                       IdempotencyRecord.pass_id.is_(None)))]
    changed = []
    for record_id, stored in rows:
        body = _open(stored)
        after = change(body)
        if after != body:
            changed.append({"r_id": record_id,
                            "r_body": vault.encrypt(after.encode()).decode() if after else ""})
    if changed:
        table = cast(Table, IdempotencyRecord.__table__)
        connection.execute(update(table).where(table.c.id == bindparam("r_id"))
                           .values(body=bindparam("r_body")), changed)
    return len(changed)
