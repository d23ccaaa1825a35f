"""Who a pass may be emailed to, and how often (decisions.md "Sending passes by email").

In test, only to the organization's members (their sign-in addresses): test keys are handed
around freely and must not mail strangers. In both environments, at most
`EMAIL_PASS_HOURLY_LIMIT` emails of one pass and `EMAIL_RECIPIENT_HOURLY_LIMIT` emails of the
organization to one address in any hour, counted from the recorded emails. The count is taken
in the write transaction that records the email, under a lock on the recipient (PostgreSQL:
an advisory lock; SQLite writers queue anyway), so simultaneous sends cannot slip past.
"""

from __future__ import annotations

import hashlib
import math
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select

from webapp import clock, settings
from webapp.errors import RateLimited, Unprocessable
from webapp.extensions import db
from webapp.models import Membership, PassEmail, User
from webapp.services.context import Context

WINDOW = timedelta(hours=1)
PASS_LIMIT, RECIPIENT_LIMIT = "EMAIL_PASS_HOURLY_LIMIT", "EMAIL_RECIPIENT_HOURLY_LIMIT"


def check_recipient(ctx: Context, to: str, param: str) -> None:
    """In test, `to` must be a member's address (the CLI, the operator's, may send anywhere).

    :raises Unprocessable: `test_recipient_not_member`, naming `param`.
    """
    if ctx.environment != "test" or ctx.actor == "cli":
        return
    member = db.session.scalar(
        select(Membership.id).join(User, User.id == Membership.user_id)
        .where(Membership.organization_id == ctx.organization_id,
               func.lower(User.email) == to.strip().lower()).limit(1))
    if member is None:
        raise Unprocessable(
            f"In test, passes are emailed only to members of your organization (the "
            f"addresses they sign in with), and {param} is not one. Add the person as a "
            "member, or send from live.", code="test_recipient_not_member", param=param)


def check_rate(ctx: Context, to: str, param: str, pass_id: str | None,
               planned: int = 0) -> None:
    """At most the hourly emails of a pass and to a recipient, `planned` more to `to`
    already in this transaction's batch; called inside the transaction that records it.

    :raises RateLimited: `email_rate_limited`, with the seconds until one more is allowed.
    """
    address = to.strip().lower()
    session = db.session
    _lock(f"email:{ctx.organization_id}:{address}")
    since = clock.now() - WINDOW
    recipient = (PassEmail.organization_id == ctx.organization_id,
                 func.lower(PassEmail.to_address) == address)
    checks: list[tuple[str, str, tuple[Any, ...], int]] = [
        (RECIPIENT_LIMIT, "to this address", recipient, planned)]
    if pass_id is not None:
        checks.append((PASS_LIMIT, "of this pass", (PassEmail.pass_id == pass_id,), 0))
    for setting, what, where, more in checks:
        limit = int(settings.get(setting) or 0)
        times = session.scalars(select(PassEmail.created_at).where(
            *where, PassEmail.created_at > since).order_by(PassEmail.created_at.desc())
            .limit(limit)).all()
        if len(times) + more >= limit:
            oldest = times[-1] if times else clock.now()
            wait = math.ceil((oldest + WINDOW - clock.now()).total_seconds())
            raise RateLimited(
                f"At most {limit} emails {what} are sent in an hour; the next one can go in "
                f"{_words(wait)}.", code="email_rate_limited", param=param, retry_after=wait)


def _lock(name: str) -> None:
    """Hold `name` until the transaction ends (PostgreSQL; SQLite has one writer at a time)."""
    if db.engine.dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)
        db.session.execute(select(func.pg_advisory_xact_lock(key)))


def _words(seconds: int) -> str:
    minutes = -(-seconds // 60)
    return f"{minutes} minute{'s' * (minutes != 1)}"
