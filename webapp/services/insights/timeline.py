"""A pass's own timeline: issued, viewed, add intents, wallet installs and removals, updates
with each wallet's delivery, voided, redeemed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select

from webapp import clock
from webapp.db.find import find_or_404
from webapp.extensions import db
from webapp.models import Pass, PassActivity, PassUpdate, Redemption
from webapp.services.context import Context


def timeline(ctx: Context, pass_id: str) -> list[dict[str, Any]]:
    """What happened to a pass of the context, oldest first.

    :raises NotFound: no such pass in this organization and environment.
    """
    item = find_or_404(Pass, pass_id, prefix="pass", what="pass",
                       organization_id=ctx.organization_id, environment=ctx.environment)
    entries: list[tuple[datetime, dict[str, Any]]] = [
        (item.created_at, _entry(item.created_at, "issued", None, source=item.source))]
    for activity in db.session.scalars(select(PassActivity).where(
            PassActivity.pass_id == item.id).order_by(PassActivity.id)):
        entries.append((activity.at, _entry(activity.at, activity.kind, activity.platform)))
    for update in db.session.scalars(select(PassUpdate).where(
            PassUpdate.pass_id == item.id).order_by(PassUpdate.id)):
        entries.append((update.created_at, _entry(
            update.created_at, "updated", None, updateId=update.id, kind=update.kind,
            apple=update.apple_status, google=update.google_status)))
    if item.voided_at is not None:
        entries.append((item.voided_at, _entry(item.voided_at, "voided", None)))
    for redemption in db.session.scalars(select(Redemption).where(
            Redemption.pass_id == item.id).order_by(Redemption.sequence)):
        entries.append((redemption.redeemed_at, _entry(
            redemption.redeemed_at, "redeemed", None, location=redemption.location)))
    # A stable sort: at the same moment, the order above (issued first) holds.
    return [entry for _, entry in sorted(entries, key=lambda pair: pair[0])]


def _entry(at: datetime, type_: str, platform: str | None, **detail: Any) -> dict[str, Any]:
    return {"at": clock.isoformat(at), "type": type_, "platform": platform, "detail": detail}
