"""Reading messages, with what became of them in each wallet.

Per wallet, every pass of the audience is counted once, in one of `delivered`,
`withoutNotification` (Google: added as a plain message, the pass's 3 notifications of the
last 24 hours were spent), `failed`, `skipped` and `pending`; `reasons` counts why passes
were skipped, failed or not notified (`pass_voided`, `not_issued_for_wallet`,
`not_in_wallet`, `notification_quota_exceeded`, or a failure's error code).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import func, select

from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.extensions import db
from webapp.models import Message, PassUpdate
from webapp.services.context import Context

WALLETS = ("apple", "google")
COUNTS = ("delivered", "withoutNotification", "failed", "skipped", "pending")
# A message update's wallet status -> (count, reason).
_APPLE = {"sent": ("delivered", None), "delivered": ("delivered", None),
          "no_devices": ("skipped", "not_in_wallet"),
          "skipped": ("skipped", "not_issued_for_wallet"), "failed": ("failed", None),
          "pending": ("pending", None)}
_GOOGLE = {"not_saved": ("skipped", "not_in_wallet"),
           "skipped": ("skipped", "not_issued_for_wallet"), "failed": ("failed", None),
           "pending": ("pending", None)}


def find(ctx: Context, message_id: str) -> Message:
    """:raises NotFound: no such message in this organization and environment."""
    return find_or_404(Message, message_id, prefix="msg", what="message",
                       organization_id=ctx.organization_id, environment=ctx.environment)


def get(ctx: Context, message_id: str) -> Message:
    """A message with its counts.

    :raises NotFound: no such message in this organization and environment.
    """
    return shown(find(ctx, message_id))


def list_(ctx: Context, *, status: str | None = None, limit: int = pagination.DEFAULT_LIMIT,
          cursor: str | None = None) -> pagination.Page[Message]:
    """The environment's messages, newest first, with their counts.

    :raises InvalidRequest: bad limit or cursor.
    """
    scope = (Message.organization_id == ctx.organization_id,
             Message.environment == ctx.environment)
    query = select(Message).where(*scope)
    if status is not None:
        query = query.where(Message.status == status)
    page = pagination.paginate(query, Message.id, select(Message.id).where(*scope),
                               limit=limit, cursor=cursor)
    counted = delivery_of(page.data)
    for message in page.data:
        message.delivery = counted[message.id]
    return page


def shown(message: Message) -> Message:
    """The message with its counts attached."""
    message.delivery = delivery_of([message])[message.id]
    return message


def delivery_of(messages: list[Message]) -> dict[str, dict[str, Any]]:
    """Message ID -> its counts per wallet, from one grouped query over their updates."""
    found: dict[str, dict[str, dict[str, Any]]] = {
        m.id: {w: {**dict.fromkeys(COUNTS, 0), "reasons": Counter()} for w in WALLETS}
        for m in messages}
    if not messages:
        return {}
    rows = db.session.execute(select(
        PassUpdate.message_id, PassUpdate.apple_status, PassUpdate.google_status,
        PassUpdate.google_notified, func.count()).where(
        PassUpdate.message_id.in_(list(found))).group_by(
        PassUpdate.message_id, PassUpdate.apple_status, PassUpdate.google_status,
        PassUpdate.google_notified))
    failed: dict[str, list[str]] = {wallet: [] for wallet in WALLETS}
    for row_message_id, apple, google, notified, count in rows:
        message_id = str(row_message_id)
        for wallet, (name, reason) in (("apple", _APPLE.get(apple, ("pending", None))),
                                       ("google", _google(google, notified))):
            _add(found[message_id][wallet], name, reason, count)
            if name == "failed":
                failed[wallet].append(message_id)
    for wallet, failed_ids in failed.items():
        _failure_reasons(found, wallet, failed_ids)
    for message in messages:
        unsent = message.audience_size - message.processed
        for wallet in WALLETS:
            counts = found[message.id][wallet]
            for reason, count in (message.skipped or {}).items():
                _add(counts, "skipped", reason, count)
            if message.status in ("scheduled", "sending") and unsent > 0:
                counts["pending"] += unsent
            counts["reasons"] = dict(sorted(counts["reasons"].items()))
    return found


def _google(status: str, notified: bool | None) -> tuple[str, str | None]:
    if status == "updated":
        return ("withoutNotification", "notification_quota_exceeded") if notified is False \
            else ("delivered", None)
    return _GOOGLE.get(status, ("pending", None))


def _add(counts: dict[str, Any], name: str, reason: str | None, count: int) -> None:
    counts[name] += count
    if reason is not None:
        counts["reasons"][reason] += count


def _failure_reasons(found: dict[str, dict[str, dict[str, Any]]], wallet: str,
                     message_ids: list[str]) -> None:
    """Tally the error codes of the messages' failed updates in a wallet: one grouped query."""
    if not message_ids:
        return
    code = getattr(PassUpdate, f"{wallet}_error")["code"].as_string()
    rows = db.session.execute(select(PassUpdate.message_id, code, func.count()).where(
        PassUpdate.message_id.in_(message_ids),
        getattr(PassUpdate, f"{wallet}_status") == "failed").group_by(PassUpdate.message_id, code))
    for message_id, error_code, count in rows:
        found[str(message_id)][wallet]["reasons"][str(error_code or "failed")] += count
