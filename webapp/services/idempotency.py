"""Idempotency-Key records (decisions.md section 2).

A request claims its key in a short transaction of its own (state `in_progress`, visible
to every other process at once), runs, then stores its answer (`completed`). A second
request with the same key and fingerprint gets the stored answer; with another
fingerprint, `idempotency_key_reused`; while the first still runs, `idempotency_key_in_use`.
Answers of 500 and above are not stored: the claim is released and a retry runs again.
Stored answers are encrypted with `vault` (they may hold a secret that is shown once).

A claim whose process died (its lock older than `ABANDONED_AFTER`) is taken over by the
next retry. Records are kept 24 hours (`purge`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from webapp import clock, ids
from webapp.errors import IdempotencyKeyInUse, IdempotencyKeyReused
from webapp.models import IdempotencyRecord
from webapp.services import vault
from webapp.services._tx import core_transaction, transaction
from webapp.services.context import Context

RETENTION = timedelta(hours=24)
ABANDONED_AFTER = timedelta(minutes=2)


@dataclass(frozen=True)
class Replay:
    status_code: int
    body: str
    request_id: str


@dataclass(frozen=True)
class Claim:
    record_id: str


def claim(ctx: Context, key: str, fingerprint: str) -> Replay | Claim:
    """Claim `key` for this request, or the stored answer of the first request.

    :raises IdempotencyKeyReused: the key was used for another request.
    :raises IdempotencyKeyInUse: the first request with this key is still running.
    """
    now = clock.now()
    record_id = ids.new_id("idem")
    with core_transaction() as conn:
        # One statement in the common case: a new key is inserted, a known one is kept.
        # RETURNING rather than rowcount: psycopg reports -1 for ON CONFLICT statements.
        inserted = conn.execute(_insert_new(conn.dialect.name).values(
            id=record_id, organization_id=ctx.organization_id, environment=ctx.environment,
            key=key, fingerprint=fingerprint, request_id=ctx.request_id or "",
            state="in_progress", created_at=now, locked_at=now,
        ).returning(IdempotencyRecord.id)).scalar_one_or_none()
    if inserted is not None:
        return Claim(record_id)
    with transaction() as session:
        record = session.scalar(select(IdempotencyRecord).where(
            IdempotencyRecord.organization_id == ctx.organization_id,
            IdempotencyRecord.environment == ctx.environment,
            IdempotencyRecord.key == key,
        ).with_for_update())
        if record is None or now - record.created_at > RETENTION:
            # Past retention (or purged meanwhile): the key counts as new.
            if record is not None:
                session.delete(record)
                session.flush()
            session.add(IdempotencyRecord(
                id=record_id, organization_id=ctx.organization_id,
                environment=ctx.environment, key=key, fingerprint=fingerprint,
                request_id=ctx.request_id or "", state="in_progress", created_at=now,
                locked_at=now))
            return Claim(record_id)
        return _existing(ctx, record, fingerprint, now)


def _insert_new(dialect: str) -> Any:
    """INSERT ... ON CONFLICT DO NOTHING in this database's dialect."""
    if dialect == "postgresql":
        return pg_insert(IdempotencyRecord).on_conflict_do_nothing()
    return sqlite_insert(IdempotencyRecord).on_conflict_do_nothing()


def _existing(ctx: Context, record: IdempotencyRecord, fingerprint: str, now: Any
              ) -> Replay | Claim:
    if record.fingerprint != fingerprint:
        raise IdempotencyKeyReused(
            "Keys for idempotent requests can only be used with the same method, path "
            "and body as the first request. Use a new key for a new request."
        )
    if record.state == "completed":
        return Replay(record.status_code or 200, _open(record.body), record.request_id)
    if now - record.locked_at < ABANDONED_AFTER:
        raise IdempotencyKeyInUse(_IN_USE)
    record.locked_at = now  # the first request's process died: this retry takes over
    record.request_id = ctx.request_id or record.request_id
    return Claim(record.id)


_IN_USE = (
    "A request with this Idempotency-Key is still being processed. "
    "Retry later with the same key."
)


def complete(claimed: Claim, status_code: int, body: str) -> None:
    """Store the answer of a claimed request (< 500), or release the claim (>= 500)."""
    table = IdempotencyRecord.__table__
    with core_transaction() as conn:
        if status_code >= 500:
            conn.execute(delete(table).where(table.c.id == claimed.record_id))
        else:
            conn.execute(update(table).where(table.c.id == claimed.record_id).values(
                state="completed", status_code=status_code, body=_seal(body)))


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
