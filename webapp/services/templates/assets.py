"""Assets: uploaded images, sniffed and checked, shared by test and live."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from webapp import ids
from webapp.db.find import find_or_404
from webapp.db.transaction import transaction
from webapp.domain.definition import SLOTS
from webapp.errors import InvalidRequest, NotFound, PayloadTooLarge
from webapp.extensions import db
from webapp.models import Asset
from webapp.services.context import Context
from webapp.wallets import images

MAX_BYTES = images.MAX_BYTES


def upload(ctx: Context, slot: str, data: bytes) -> Asset:
    """Store an image for a slot after checking what it really is.

    :raises InvalidRequest: unknown slot, empty or invalid image, size out of range.
    :raises PayloadTooLarge: the file is over 5 MiB.
    """
    if slot not in SLOTS:
        why = (" (no footer: Apple Wallet shows one only on boarding passes, which this "
               "service does not issue, and Google Wallet has none)") if slot == "footer" else ""
        raise InvalidRequest(f"slot must be one of {', '.join(SLOTS)}{why}.",
                             code="unknown_slot", param="slot")
    try:
        info = images.inspect(data)
    except images.ImageError as exc:
        if exc.code == "file_too_large":
            raise PayloadTooLarge(str(exc), param="data") from None
        raise InvalidRequest(str(exc), code=exc.code, param="data") from None
    asset = Asset(
        id=ids.new_id("asset"), organization_id=ctx.organization_id, slot=slot,
        content_type=info.content_type, byte_size=info.byte_size, width=info.width,
        height=info.height, sha256=hashlib.sha256(data).hexdigest(), data=data,
    )
    with transaction() as session:
        session.add(asset)
    return asset


def get(ctx: Context, asset_id: str) -> Asset:
    """:raises NotFound: no such asset in this organization."""
    return find_or_404(Asset, asset_id, prefix="asset", what="asset",
                       organization_id=ctx.organization_id)


def public_bytes(asset_id: str) -> tuple[str, bytes, str]:
    """Content type, bytes and SHA-256 of an asset, for its public URL.

    :raises NotFound: no such asset.
    """
    row = None
    if ids.has_prefix(asset_id, "asset"):
        row = db.session.execute(select(Asset.content_type, Asset.data, Asset.sha256)
                                 .where(Asset.id == asset_id)).one_or_none()
    if row is None:
        raise NotFound(f"No such asset: {asset_id}")
    return row.content_type, row.data, row.sha256


def generated_logo(ctx: Context, organization_name: str) -> Asset:
    """A plain logo (the name's first letter) for a new loyalty template, which cannot be
    saved without one; the designer replaces it with the real one."""
    data = images.generated_icon(organization_name or "?", "#1d2b53", "#ffffff", 150)
    return upload(ctx, "logo", data)
