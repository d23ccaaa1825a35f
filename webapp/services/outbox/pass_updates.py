"""Pushing a pass update to the wallets that hold the pass (a job per update, run by the
`deliver_pass_update` job: its stable name).

Each wallet's step (APNs pushes, a Google object PATCH) moves its `delivery.<wallet>.status`
from `pending` to a final value, or leaves it `pending` with `next_attempt_at` for the sweep
to retry; once both are final the update is done and `pass_update.delivered` is emitted.

`push_all` runs the steps for a bulk job chunk's updates together (the `deliver_pass_updates`
job): Apple's pushes go out in one batch and are recorded in a few transactions.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select

from webapp import ids
from webapp.extensions import db
from webapp.models import PassUpdate
from webapp.services.apple import push as apple_push
from webapp.services.google import push as google_push
from webapp.services.webhooks import events


def _google(records: list[PassUpdate]) -> None:
    for record in records:  # an object PATCH each
        google_push.push(record)


Step = Callable[[list[PassUpdate]], None]
STEPS: dict[str, Step] = {"apple": apple_push.push_all, "google": _google}


def push(update_id: str) -> PassUpdate | None:
    """Run each wallet's pending step for an update; running it twice does no harm."""
    pushed = push_all([update_id])
    return pushed[0] if pushed else None


def push_all(update_ids: list[str]) -> list[PassUpdate]:
    """`push` for many updates, each wallet's steps together; the updates found."""
    # A malformed ID (a NUL byte is a database error on PostgreSQL) names no row either.
    wanted = [update_id for update_id in update_ids if ids.has_prefix(update_id, "pupd")]
    if not wanted:
        return []
    found = {record.id: record for record in db.session.scalars(
        select(PassUpdate).where(PassUpdate.id.in_(wanted))
        .execution_options(populate_existing=True))}
    records = [found[update_id] for update_id in dict.fromkeys(wanted) if update_id in found]
    for wallet, step in STEPS.items():
        pending = [r for r in records if getattr(r, f"{wallet}_status") == "pending"]
        if pending:
            step(pending)
    # Both wallets final: `pass_update.delivered`, once each.
    events.pass_updates_finished(records)
    return records
