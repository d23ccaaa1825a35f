"""Pushing a pass update to the wallets that hold the pass (a job per update, run by the
`deliver_pass_update` job: its stable name).

Each wallet's step (APNs pushes, a Google object PATCH) moves its `delivery.<wallet>.status`
from `pending` to a final value, or leaves it `pending` with `next_attempt_at` for the sweep
to retry; once both are final the update is done and `pass_update.delivered` is emitted.
"""

from __future__ import annotations

from collections.abc import Callable

from webapp import ids
from webapp.extensions import db
from webapp.models import PassUpdate
from webapp.services.apple import push as apple_push
from webapp.services.google import push as google_push
from webapp.services.webhooks import events

Step = Callable[[PassUpdate], None]
STEPS: dict[str, Step] = {"apple": apple_push.push, "google": google_push.push}


def push(update_id: str) -> PassUpdate | None:
    """Run each wallet's pending step for an update; running it twice does no harm."""
    # A malformed ID (a NUL byte is a database error on PostgreSQL) names no row either.
    record = db.session.get(PassUpdate, update_id) if ids.has_prefix(update_id, "pupd") else None
    if record is None:
        return None
    for wallet, step in STEPS.items():
        if getattr(record, f"{wallet}_status") == "pending":
            step(record)
    events.pass_update_finished(record)  # both wallets final: `pass_update.delivered`, once
    return record
