"""Download links: expiring, revocable links to a pass's holder page (decisions.md section 9).

The token (192 random bits) is shown once, in the creation answer; only its SHA-256 is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select

from webapp import clock, ids, settings
from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.db.transaction import transaction
from webapp.errors import InvalidRequest, NotFound
from webapp.extensions import db
from webapp.models import DownloadLink, Pass
from webapp.services.context import Context
from webapp.services.passes import queries, views
from webapp.services.templates import revisions

DEFAULT_LIFETIME = 3600
MIN_LIFETIME, MAX_LIFETIME = 60, 7 * 24 * 3600


def create(ctx: Context, pass_id: str, expires_in: int = DEFAULT_LIFETIME) -> DownloadLink:
    """A new link; its `url` (with the token) is set on the returned object only.

    :raises NotFound: no such pass.
    :raises InvalidRequest: lifetime out of range, or the pass is voided.
    """
    if isinstance(expires_in, bool) or not isinstance(expires_in, int) or \
            not MIN_LIFETIME <= expires_in <= MAX_LIFETIME:
        raise InvalidRequest(f"expiresInSeconds must be an integer from {MIN_LIFETIME} to "
                             f"{MAX_LIFETIME}.", param="expiresInSeconds")
    item = queries.find(ctx, pass_id)
    if item.status == "voided":
        raise InvalidRequest("This pass is voided: no link can be made for it.",
                             code="pass_voided")
    token = ids.token(24)
    now = clock.now()
    link = DownloadLink(id=ids.new_id("dlink"), pass_id=item.id,
                        organization_id=ctx.organization_id, environment=ctx.environment,
                        token_hash=ids.sha256_hex(token), created_at=now,
                        expires_at=now + timedelta(seconds=expires_in))
    with transaction() as session:
        session.add(link)
    link.url = f"{settings.get('BASE_URL')}/d/{token}"
    return link


def revoke(ctx: Context, link_id: str) -> None:
    """Stop a link now (again, or after expiry, is fine).

    :raises NotFound: no such link in this organization and environment.
    """
    with transaction():
        link = _find(ctx, link_id)
        if link.revoked_at is None:
            link.revoked_at = clock.now()


def list_for_pass(ctx: Context, pass_id: str, *, limit: int = pagination.DEFAULT_LIMIT,
                  cursor: str | None = None) -> pagination.Page[DownloadLink]:
    """The pass's links, newest first, without their URLs.

    :raises NotFound: no such pass.
    """
    item = queries.find(ctx, pass_id)
    scope = select(DownloadLink.id).where(DownloadLink.pass_id == item.id)
    query = select(DownloadLink).where(DownloadLink.pass_id == item.id)
    return pagination.paginate(query, DownloadLink.id, scope, limit=limit, cursor=cursor)


@dataclass(frozen=True)
class Resolved:
    """What a token leads to: the pass, or why it no longer does (a voided pass names its
    issuer: the holder should know whom to ask)."""

    pass_: Pass | None
    gone: str | None  # expired | revoked | voided
    issuer: str | None = None


def resolve(token: str) -> Resolved:
    """The pass behind a download-link token.

    :raises NotFound: no link has this token.
    """
    link = None
    if isinstance(token, str) and 16 <= len(token) <= 128:
        link = db.session.scalar(select(DownloadLink).where(
            DownloadLink.token_hash == ids.sha256_hex(token)))
    if link is None:
        raise NotFound("No such download link.")
    if link.revoked_at is not None:
        return Resolved(None, "revoked")
    if link.expires_at <= clock.now():
        return Resolved(None, "expired")
    item = db.session.get(Pass, link.pass_id)
    if item is None:
        raise NotFound("No such download link.")
    if item.status == "voided":
        return _voided(item)
    return Resolved(item, None)


def _voided(item: Pass) -> Resolved:
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    return Resolved(None, "voided", issuer=views.issuer_name(item, definition))


_WALLET_NAMES = {"apple": "Apple Wallet", "google": "Google Wallet"}


def by_short_id(short_id: str, wallet: str | None = None) -> Resolved:
    """The pass behind a permanent page (`/p/<shortId>`), or `voided`.

    :raises NotFound: no pass has this short ID, or it is not issued for `wallet`.
    """
    item = None
    if isinstance(short_id, str) and len(short_id) == 12 and short_id.isascii():
        item = db.session.scalar(select(Pass).where(Pass.short_id == short_id.upper()))
    if item is None:
        raise NotFound("No such pass.")
    return _usable(item, wallet)


def by_token(token: str, wallet: str | None = None) -> Resolved:
    """The pass behind a download link (`/d/<token>`), or why it is gone.

    :raises NotFound: no link has this token, or its pass is not issued for `wallet`.
    """
    resolved = resolve(token)
    return resolved if resolved.pass_ is None else _usable(resolved.pass_, wallet)


def _usable(item: Pass, wallet: str | None) -> Resolved:
    if wallet is not None and not getattr(item, wallet):
        raise NotFound(f"This pass is not issued for {_WALLET_NAMES[wallet]}.")
    if item.status == "voided":
        return _voided(item)
    return Resolved(item, None)


def _find(ctx: Context, link_id: str) -> DownloadLink:
    return find_or_404(DownloadLink, link_id, prefix="dlink", what="download link",
                       organization_id=ctx.organization_id, environment=ctx.environment)
