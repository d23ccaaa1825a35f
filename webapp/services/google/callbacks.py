"""Google Wallet save/delete callbacks: verify, dedupe on the nonce, record the pass's
installation state and the `pass.added_to_wallet` / `pass.removed_from_wallet` event.

A forged, expired, replayed or foreign-issuer callback changes nothing. A replay (the same
nonce) is answered 200 so that Google stops retrying a delivery we already acted on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from webapp import clock, settings
from webapp.db.transaction import changed_rows, transaction
from webapp.extensions import db
from webapp.models import GoogleCallbackNonce, GoogleIssuer, GoogleObject, Pass
from webapp.services.credentials import identities
from webapp.services.insights import record as insights
from webapp.services.webhooks import events
from webapp.wallets.google import callbacks

log = logging.getLogger("webapp.google.callbacks")
MAX_BODY = 64 * 1024
EVENT_TYPES = {"save": "pass.added_to_wallet", "del": "pass.removed_from_wallet"}


@dataclass(frozen=True)
class Outcome:
    """What to answer Google: an HTTP status and a short code."""

    status: int
    code: str


def receive(body: bytes) -> Outcome:
    """Act on one callback body (the raw bytes Google posted)."""
    try:
        envelope = callbacks.parse(body)
        issuer_id = callbacks.claimed_issuer(envelope)
        if not _ours(issuer_id):
            return _rejected(401, "unknown_issuer")
        keys = callbacks.root_keys(settings.get("GOOGLE_CALLBACK_KEYS_URL"))
        message = callbacks.verify(envelope, issuer_id, keys,
                                   now_ms=int(clock.now().timestamp() * 1000),
                                   sender=settings.get("GOOGLE_CALLBACK_SENDER_ID"))
    except callbacks.CallbackError as exc:
        if exc.code == "keys_unavailable":
            return _rejected(503, exc.code)  # Google retries; we could not check it now
        return _rejected(400 if exc.code == "malformed" else 401, exc.code)
    prefix = f"{issuer_id}."
    if not (message.object_id.startswith(prefix) and message.class_id.startswith(prefix)):
        return _rejected(401, "foreign_object")
    return _apply(issuer_id, message)


def _apply(issuer_id: str, message: callbacks.Callback) -> Outcome:
    row = db.session.scalar(select(GoogleObject).where(
        GoogleObject.object_id == message.object_id, GoogleObject.issuer_id == issuer_id))
    if row is None:  # not ours (or long gone): acknowledged, nothing to change
        log.info("google callback for an unknown object ignored")
        return Outcome(200, "unknown_object")
    try:
        with transaction() as session:
            session.add(GoogleCallbackNonce(
                nonce=message.nonce, object_id=message.object_id, event_type=message.event_type,
                expires_at=datetime.fromtimestamp(message.expires_ms / 1000, UTC),
                received_at=clock.now()))
            session.flush()
            was_saved = row.wallet_state == "saved"
            _installation(row, message.event_type)
            item = session.get(Pass, row.pass_id)
            if item is None:  # cannot be: a pass's Google object is deleted with it
                raise RuntimeError(f"google object {row.object_id} has no pass")
            # Counted when the object's state changes: a second save is not a second install.
            if was_saved != (row.wallet_state == "saved"):
                insights.wallet_changed(session, item, "google",
                                        "added" if row.wallet_state == "saved" else "removed")
            wallet = {"platform": "google",
                      "installations": 1 if row.wallet_state == "saved" else 0}
            events.emit(session, organization_id=row.organization_id,
                        environment=row.environment, type=EVENT_TYPES[message.event_type],
                        data=events.pass_data(session, item, wallet=wallet))
    except IntegrityError:
        db.session.rollback()
        return Outcome(200, "duplicate")
    return Outcome(200, "accepted")


def _installation(row: GoogleObject, event_type: str) -> None:
    now = clock.now()
    if event_type == "save":
        row.wallet_state, row.saved_at = "saved", now
    else:
        row.wallet_state, row.removed_at = "removed", now
    row.updated_at = now


def _ours(issuer_id: str) -> bool:
    if not issuer_id.isdigit():
        return False
    if db.session.scalar(select(GoogleIssuer.id).where(GoogleIssuer.issuer_id == issuer_id)):
        return True
    return identities.demo_google().issuer_id == issuer_id


def _rejected(status: int, code: str) -> Outcome:
    log.warning("google callback rejected code=%s", code)
    return Outcome(status, code)


def purge_nonces() -> int:
    """Forget nonces of callbacks past their expiry (a replay of one fails as expired)."""
    with transaction() as session:
        return changed_rows(session, delete(GoogleCallbackNonce).where(
            GoogleCallbackNonce.expires_at < clock.now()))
