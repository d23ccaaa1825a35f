"""Everything the service holds about a pass's holder, for a subject access request
(issue 33, `GET /v1/passes/<id>/export`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from webapp import clock
from webapp.extensions import db
from webapp.models import (
    AppleRegistration,
    BalanceTransaction,
    Enrollment,
    Event,
    GoogleObject,
    Pass,
    PassActivity,
    PassEmail,
    PassUpdate,
    Redemption,
)
from webapp.services.context import Context
from webapp.services.passes import queries
from webapp.services.webhooks import events


@dataclass(frozen=True)
class Export:
    pass_: Pass
    updates: list[PassUpdate]
    emails: list[PassEmail]
    redemptions: list[Redemption]
    balance_transactions: list[BalanceTransaction]
    events: list[Event]
    installations: dict[str, Any]
    activity: list[dict[str, Any]]
    enrollment: dict[str, Any] | None


def export(ctx: Context, pass_id: str) -> Export:
    """The pass with its updates, emails, redemptions, balance movements, events (the last
    30 days: what is kept), wallet installations and activity, oldest first, and the consent
    its holder gave on a sign-up page.

    :raises NotFound: no such pass in this organization and environment.
    """
    item = queries.get(ctx, pass_id)

    def of_pass(model: Any) -> list[Any]:
        return list(db.session.scalars(select(model).where(model.pass_id == item.id)
                                       .order_by(model.id)))

    return Export(item, of_pass(PassUpdate), of_pass(PassEmail), of_pass(Redemption),
                  of_pass(BalanceTransaction), events.about_pass(db.session(), ctx, item.id),
                  _installations(item),
                  [{"kind": a.kind, "platform": a.platform, "at": clock.isoformat(a.at)}
                   for a in of_pass(PassActivity)], _enrollment(item))


def _enrollment(item: Pass) -> dict[str, Any] | None:
    """The sign-up that issued the pass: the consent sentence ticked and when; None for a
    pass not issued by a sign-up page."""
    found = db.session.scalar(select(Enrollment).where(Enrollment.pass_id == item.id).limit(1))
    if found is None:
        return None
    return {"consent": found.consent, "consentedAt": clock.isoformat(found.consented_at)}


def _installations(item: Pass) -> dict[str, Any]:
    """The Apple devices registered for the pass and its Google object's wallet state."""
    devices = db.session.scalars(select(AppleRegistration).where(
        AppleRegistration.pass_id == item.id).order_by(AppleRegistration.id))
    google = db.session.get(GoogleObject, item.id)
    return {
        "apple": [{"deviceLibraryId": d.device_library_id,
                   "registeredAt": clock.isoformat(d.created_at),
                   "updatedAt": clock.isoformat(d.updated_at)} for d in devices],
        "google": None if google is None else {
            "objectId": google.object_id, "wallet": google.wallet_state,
            "savedAt": clock.isoformat(google.saved_at),
            "removedAt": clock.isoformat(google.removed_at)},
    }
