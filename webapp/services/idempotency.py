"""Idempotency-Key records (decisions.md section 2).

A request claims its key in a short transaction of its own (state `in_progress`, visible
to every other process at once), runs, then stores its answer (`completed`). A second
request with the same key and fingerprint gets the stored answer; with another
fingerprint, `idempotency_key_reused`; while the first still runs, `idempotency_key_in_use`.
Answers of 500 and above are not stored: the claim is released and a retry runs again.

A claim whose process died (its lock older than `ABANDONED_AFTER`) is taken over by the
next retry. Records are kept 24 hours (`purge`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from webapp import clock, ids
from webapp.errors import IdempotencyKeyInUse, IdempotencyKeyReused
from webapp.models import IdempotencyRecord
from webapp.services._tx import transaction
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
    for _ in range(3):
        try:
            return _claim_once(ctx, key, fingerprint)
        except IntegrityError:  # a concurrent request inserted the same key first
            continue
    raise IdempotencyKeyInUse(_IN_USE)


def _claim_once(ctx: Context, key: str, fingerprint: str) -> Replay | Claim:
    now = clock.now()
    with transaction() as session:
        record = session.scalar(select(IdempotencyRecord).where(
            IdempotencyRecord.organization_id == ctx.organization_id,
            IdempotencyRecord.environment == ctx.environment,
            IdempotencyRecord.key == key,
        ))
        if record is not None and now - record.created_at > RETENTION:
            session.delete(record)
            session.flush()
            record = None
        if record is None:
            record = IdempotencyRecord(
                id=ids.new_id("idem"), organization_id=ctx.organization_id,
                environment=ctx.environment, key=key, fingerprint=fingerprint,
                request_id=ctx.request_id or "", state="in_progress", created_at=now,
                locked_at=now,
            )
            session.add(record)
            session.flush()
            return Claim(record.id)
        if record.fingerprint != fingerprint:
            raise IdempotencyKeyReused(
                "Keys for idempotent requests can only be used with the same method, path "
                "and body as the first request. Use a new key for a new request."
            )
        if record.state == "completed":
            return Replay(record.status_code or 200, record.body or "", record.request_id)
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
    with transaction() as session:
        record = session.get(IdempotencyRecord, claimed.record_id)
        if record is None:
            return
        if status_code >= 500:
            session.delete(record)
        else:
            record.state, record.status_code, record.body = "completed", status_code, body


def purge(older_than: timedelta = RETENTION) -> int:
    """Delete records past retention; returns how many."""
    with transaction() as session:
        result = session.execute(
            delete(IdempotencyRecord).where(IdempotencyRecord.created_at < clock.now() - older_than)
        )
    return result.rowcount or 0
