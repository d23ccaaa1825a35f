"""Where a pass is installed, as far as the service knows: Apple devices registered for
updates, the Google Wallet object (written? saved by the holder?), and each wallet's last
delivery."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from webapp.errors import NotFound
from webapp.extensions import db
from webapp.models import AppleRegistration, GoogleObject, Pass, PassUpdate
from webapp.services.context import Context


def for_pass(ctx: Context, item: Pass) -> dict[str, Any]:
    """{"apple": {...}, "google": {...}} for a pass of the context.

    :raises NotFound: the pass is not the context's.
    """
    if item.organization_id != ctx.organization_id or item.environment != ctx.environment:
        raise NotFound(f"No such pass: {item.id}", param="id")
    last = db.session.scalar(select(PassUpdate).where(PassUpdate.pass_id == item.id)
                             .order_by(PassUpdate.id.desc()).limit(1))
    return {"apple": _apple(item, last), "google": _google(item, last)}


def _apple(item: Pass, last: PassUpdate | None) -> dict[str, Any]:
    if not item.apple:
        return {"issued": False}
    devices = db.session.scalar(select(func.count()).select_from(AppleRegistration)
                                .where(AppleRegistration.pass_id == item.id))
    return {"issued": True, "devices": devices,
            "lastDelivery": last.apple_status if last is not None else None}


def _google(item: Pass, last: PassUpdate | None) -> dict[str, Any]:
    if not item.google:
        return {"issued": False}
    row = db.session.get(GoogleObject, item.id)  # loaded already by the pass's artifacts
    return {"issued": True, "object": row.state if row else None,
            "objectError": row.error if row else None,
            "wallet": row.wallet_state if row else None,
            "savedAt": row.saved_at if row else None,
            "removedAt": row.removed_at if row else None,
            "lastDelivery": last.google_status if last is not None else None}


def for_list(ctx: Context, items: list[Pass]) -> dict[str, dict[str, Any]]:
    """Pass ID -> {"apple": devices registered, or None when not issued for Apple;
    "google": "saved" | "removed" | "not_saved", or None when not issued for Google}, for
    a page of the context's passes (two queries for the page)."""
    ids = [p.id for p in items if p.organization_id == ctx.organization_id
           and p.environment == ctx.environment]
    wanted = set(ids)
    devices: dict[str, int] = {}
    saved: dict[str, str | None] = {}
    if ids:
        devices = dict(db.session.execute(
            select(AppleRegistration.pass_id, func.count())
            .where(AppleRegistration.pass_id.in_(ids)).group_by(AppleRegistration.pass_id)).all())
        saved = dict(db.session.execute(
            select(GoogleObject.pass_id, GoogleObject.wallet_state)
            .where(GoogleObject.pass_id.in_(ids))).all())
    return {p.id: {"apple": devices.get(p.id, 0) if p.apple else None,
                   "google": (saved.get(p.id) or "not_saved") if p.google else None}
            for p in items if p.id in wanted}
