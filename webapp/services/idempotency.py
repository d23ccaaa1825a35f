"""Idempotency-Key records (decisions.md section 2).

A request's answer is stored in the same commit as the change it reports: a change is never
kept without its stored answer, and a process that dies in between leaves nothing behind
but a rolled-back transaction (`begin` starts a request unit, see `_tx`; `finish` stores
the answer and commits). Answers of 500 and above are not stored: the transaction rolls
back and a retry runs again. Stored answers are encrypted with `vault` (they may hold a
secret that is shown once). Records are kept 24 hours (`purge`).

A second request with the same key and fingerprint gets the stored answer; with another
fingerprint, `idempotency_key_reused`; while the first still runs,
`idempotency_key_in_use`. The request's first write transaction claims the key in its
first statement (an insert that does nothing if the key has a record), so a retry's view
runs up to its first write (reads and validation, which change nothing) and then answers
with the stored answer. A running request's key is `in_use` at once, without waiting for
the first request's commit:

- SQLite (one machine, writers one at a time): the key is held from the start of the
  request (`_tx.hold_key`, a lock other processes and threads see at once); a second
  request for it does not queue behind the writers' lock.
- PostgreSQL: the claim takes a transaction-level advisory lock in the same statement, so
  a second request never waits for the first one's uncommitted row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, cast, delete, func, literal, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from webapp import clock, ids
from webapp.errors import IdempotencyKeyInUse, IdempotencyKeyReused, ServiceError
from webapp.models import IdempotencyRecord
from webapp.services import _tx, vault
from webapp.services._sql import Prepared
from webapp.services._tx import transaction
from webapp.services.context import Context

RETENTION = timedelta(hours=24)
# An `in_progress` record is only ever visible if it was written before claims and answers
# shared a transaction; one older than this is taken over.
ABANDONED_AFTER = timedelta(minutes=2)

_table = IdempotencyRecord.__table__


@dataclass(frozen=True)
class Replay:
    status_code: int
    body: str
    request_id: str


class KeyTaken(Exception):
    """The key was used already: the request ends with `outcome` (a replay, or an error
    the wrapper answers with) instead of its view's answer."""

    def __init__(self, outcome: Replay | ServiceError) -> None:
        super().__init__(type(outcome).__name__)
        self.outcome = outcome


@dataclass
class Pending:
    ctx: Context
    key: str
    fingerprint: str
    release: Callable[[], None] | None = None
    record_id: str = field(default_factory=lambda: ids.new_id("idem"))
    replaces: str | None = None  # the key's old record (past retention), deleted first


def begin(ctx: Context, key: str, fingerprint: str) -> Pending:
    """Start the request's unit with `key`: its first write transaction claims the key.

    :raises KeyTaken: the key is held by another running request (SQLite;
        `idempotency_key_in_use`). The claim itself raises it later for a used key.
    """
    try:
        release = _tx.hold_key(_scope(ctx, key))
    except _tx.KeyBusy:
        raise KeyTaken(IdempotencyKeyInUse(_IN_USE)) from None
    pending = Pending(ctx, key, fingerprint, release)
    _tx.start_unit(lambda session: _claim(session, pending))
    return pending


Stale = _tx.Stale  # the request must run again (its deferred rows' reads changed)


def finish(pending: Pending, status_code: int, body: str) -> Replay | None:
    """Store the request's answer (< 500) in its transaction and commit; a request that
    wrote nothing claims its key with the answer now. Returns the first request's answer
    instead when the key turns out to be used already (a request whose writes waited for
    the commit, or that wrote nothing).

    :raises KeyTaken: ... with an error (`idempotency_key_reused` or `_in_use`).
    :raises Stale: run the view again and finish again (its writes are then in place).
    """
    if status_code >= 500:
        _tx.abandon_unit()
        return None
    sealed = _seal(body)

    def claim_answered(session: Session) -> None:  # the claim, with its answer already
        _claim(session, pending, status_code=status_code, body=sealed)

    try:
        if _tx.finish_unit(lambda session: session.connection().execute(_COMPLETE, {
                "record_id": pending.record_id, "status_code": status_code, "body": sealed}),
                claim_answered):
            return None
        with transaction() as session:
            claim_answered(session)
    except KeyTaken as taken:
        if isinstance(taken.outcome, Replay):
            return taken.outcome
        raise
    return None


def _values(pending: Pending, status_code: int | None, body: str | None) -> dict[str, Any]:
    """A new record of the key: `completed` with its answer, or `in_progress` (a claim)."""
    now = clock.now()
    ctx = pending.ctx
    return {"id": pending.record_id, "organization_id": ctx.organization_id,
            "environment": ctx.environment, "key": pending.key,
            "fingerprint": pending.fingerprint, "request_id": ctx.request_id or "",
            "state": "in_progress" if status_code is None else "completed",
            "status_code": status_code, "body": body, "created_at": now, "locked_at": now}


def _write(conn: Any, pending: Pending, values: dict[str, Any]) -> None:
    """Insert the key's record, first deleting the one it replaces (past retention, or
    abandoned)."""
    if pending.replaces is not None:
        conn.execute(_DELETE, {"record_id": pending.replaces})
    conn.execute(_table.insert(), values)


def _where(pending: Pending) -> dict[str, str]:
    ctx = pending.ctx
    return {"organization_id": ctx.organization_id, "environment": ctx.environment,
            "key": pending.key}


def end(pending: Pending) -> None:
    """The request is over: roll back its unit if it is still open (it failed) and let go
    of the key."""
    try:
        _tx.abandon_unit()
    finally:
        _release(pending)


def _release(pending: Pending) -> None:
    if pending.release is not None:
        pending.release()
        pending.release = None


def _claim(session: Session, pending: Pending, *, status_code: int | None = None,
           body: str | None = None) -> None:
    """Claim the key as the first statement of the request's write transaction (with its
    answer already when `status_code` is given).

    :raises KeyTaken: the key is used already (replay), by another request
        (`idempotency_key_reused`) or is still running (`idempotency_key_in_use`).
    """
    values = _values(pending, status_code, body)
    conn = session.connection()
    postgres = conn.dialect.name == "postgresql"
    lock = {"lock": _advisory_key(pending.ctx, pending.key)} if postgres else {}
    if _insert(conn.dialect.name).run(conn, {**values, **lock}):
        return
    if postgres and not conn.execute(_TRY_LOCK, lock).scalar():
        raise KeyTaken(IdempotencyKeyInUse(_IN_USE))  # the first request has not committed
    record = conn.execute(_RECORD_FOR_UPDATE, _where(pending)).first()
    if record is not None:  # past retention or abandoned (else `_existing` raises)
        _existing(record, pending, values["created_at"])
    _write(conn, pending, values)  # a record purged meanwhile is simply written again


def _existing(record: Any, pending: Pending, now: Any) -> None:
    """Decide on a key's record: returns when the key counts as new (`pending.replaces`
    names the record to replace).

    :raises KeyTaken: replay, `idempotency_key_reused` or `idempotency_key_in_use`.
    """
    if now - record.created_at > RETENTION:
        pending.replaces = record.id
        return
    if record.fingerprint != pending.fingerprint:
        raise KeyTaken(IdempotencyKeyReused(
            "Keys for idempotent requests can only be used with the same method, path "
            "and body as the first request. Use a new key for a new request."
        ))
    if record.state == "completed":
        raise KeyTaken(Replay(record.status_code or 200, _open(record.body),
                              record.request_id))
    if now - record.locked_at < ABANDONED_AFTER:
        raise KeyTaken(IdempotencyKeyInUse(_IN_USE))
    # A claim whose process died before claims shared the request's transaction: this
    # retry replaces it.
    pending.replaces = record.id


_IN_USE = (
    "A request with this Idempotency-Key is still being processed. "
    "Retry later with the same key."
)

_COLUMNS = ("id", "organization_id", "environment", "key", "fingerprint", "request_id",
            "state", "status_code", "body", "created_at", "locked_at")
# Built once, compiled once: every idempotent request runs them.
_COMPLETE = update(_table).where(_table.c.id == bindparam("record_id")).values(
    state="completed", status_code=bindparam("status_code"), body=bindparam("body"))
_RECORD_FOR_UPDATE = select(*(_table.c[name] for name in _COLUMNS)).where(
    _table.c.organization_id == bindparam("organization_id"),
    _table.c.environment == bindparam("environment"), _table.c.key == bindparam("key")
).with_for_update()
_DELETE = delete(_table).where(_table.c.id == bindparam("record_id"))
_TRY_LOCK = select(func.pg_try_advisory_xact_lock(bindparam("lock")))
_inserts: dict[str, Prepared] = {}


def _insert(dialect: str) -> Prepared:
    """Insert a claim unless the key exists (then nothing, and no row returned).

    PostgreSQL: only while holding the key's advisory lock (`INSERT .. SELECT .. WHERE
    pg_try_advisory_xact_lock(..)`), so a claim never waits for another transaction's
    uncommitted row with the same key: that one holds the lock, and nothing is inserted.
    """
    prepared = _inserts.get(dialect)
    if prepared is None:
        columns = [_table.c[name] for name in _COLUMNS]
        if dialect == "postgresql":
            # Typed casts: PostgreSQL cannot tell a NULL parameter's type in a SELECT list.
            source = select(*(cast(bindparam(c.key, type_=c.type), c.type)
                              for c in columns)).where(
                func.pg_try_advisory_xact_lock(bindparam("lock")) == literal(True))
            statement = pg_insert(_table).from_select(columns, source)
        else:
            statement = sqlite_insert(_table).values(
                {c.key: bindparam(c.key, type_=c.type) for c in columns})
        prepared = _inserts[dialect] = Prepared(
            statement.on_conflict_do_nothing().returning(_table.c.id))
    return prepared


def _scope(ctx: Context, key: str) -> str:
    """A key's scope: organization, environment and the key itself."""
    return f"{ctx.organization_id}\x1f{ctx.environment}\x1f{key}"


def _advisory_key(ctx: Context, key: str) -> int:
    """The key's PostgreSQL advisory lock: a signed 64-bit number drawn from its scope."""
    digest = hashlib.sha256(_scope(ctx, key).encode())
    return int.from_bytes(digest.digest()[:8], "big", signed=True)


def _seal(body: str) -> str:
    """Stored answers are encrypted: some carry secrets shown once (a webhook signing
    secret, a download link's URL)."""
    return vault.encrypt(body.encode()).decode() if body else ""


def _open(stored: str | None) -> str:
    if not stored:
        return ""
    if not stored.startswith(_FERNET):  # stored before answers were encrypted
        return stored
    return vault.decrypt(stored.encode()).decode()


_FERNET = "gAAAAA"


def purge(older_than: timedelta = RETENTION) -> int:
    """Delete records past retention; returns how many."""
    with transaction() as session:
        result = session.execute(
            delete(IdempotencyRecord).where(IdempotencyRecord.created_at < clock.now() - older_than)
        )
    return result.rowcount or 0
