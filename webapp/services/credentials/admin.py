"""Managing an organization's live signing credentials from the dashboard: usage counts,
deletion, and checking that a Google service account can reach its issuer."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select, update

from webapp import settings
from webapp.db.transaction import transaction
from webapp.errors import NotFound
from webapp.extensions import db
from webapp.models import GoogleIssuer, Pass, Template
from webapp.services.context import Context
from webapp.services.credentials import identities


def active_passes_using(ctx: Context) -> dict[str, int]:
    """Credential ID (certificate ID or Google issuer ID) -> active live passes using it."""
    scope = (Pass.organization_id == ctx.organization_id, Pass.environment == "live",
             Pass.status == "active")
    counts: dict[str, int] = {}
    for column in (Pass.apple_certificate_id, Pass.google_issuer_id):
        rows = db.session.execute(select(column, func.count()).where(
            *scope, column.is_not(None)).group_by(column))
        counts.update({key: count for key, count in rows.all() if key is not None})
    return counts


def delete_certificate(ctx: Context, certificate_id: str) -> None:
    """Delete an Apple certificate (its key goes with it); templates stop defaulting to it.

    :raises NotFound: no such certificate in this organization.
    """
    with transaction() as session:
        cert = identities.find_certificate(ctx.organization_id, certificate_id)
        if cert is None:
            raise NotFound(f"No such certificate: {certificate_id}", param="id")
        session.execute(update(Template).where(
            Template.organization_id == ctx.organization_id,
            Template.apple_certificate_id == cert.id).values(apple_certificate_id=None))
        session.delete(cert)


def find_issuer(ctx: Context, row_id: str) -> GoogleIssuer:
    """The organization's Google issuer by its row ID (`gis_...`).

    :raises NotFound: no such issuer in this organization.
    """
    row = db.session.scalar(select(GoogleIssuer).where(
        GoogleIssuer.id == row_id, GoogleIssuer.organization_id == ctx.organization_id)
    ) if isinstance(row_id, str) else None
    if row is None:
        raise NotFound(f"No such Google issuer: {row_id}", param="id")
    return row


def delete_issuer(ctx: Context, row_id: str) -> None:
    """Delete a Google issuer and its key; templates stop defaulting to it.

    :raises NotFound: no such issuer in this organization.
    """
    with transaction() as session:
        issuer = find_issuer(ctx, row_id)
        session.execute(update(Template).where(
            Template.organization_id == ctx.organization_id,
            Template.google_issuer_id == issuer.issuer_id).values(google_issuer_id=None))
        session.delete(issuer)


@dataclass(frozen=True)
class AccessCheck:
    ok: bool
    message: str


def check_issuer_access(ctx: Context, row_id: str) -> AccessCheck:
    """Ask Google for the issuer with the stored service account: can it act for it?

    :raises NotFound: no such issuer in this organization.
    """
    from webapp.wallets.google import client as google

    issuer = find_issuer(ctx, row_id)
    identity = identities.google_identity(ctx.organization_id, issuer.issuer_id)
    assert identity is not None
    wallet = google.client_for(identity.service_account, google.Settings(
        api_url=settings.get("GOOGLE_WALLET_API_URL"),
        token_uri=settings.get("GOOGLE_TOKEN_URI"), timeout=10.0, retries=0))
    # A class that does not exist: 404 means the account may read the issuer's classes
    # (it can write passes); 403 means it has no access; 401 means the key is refused.
    try:
        wallet.get("genericClass", f"{issuer.issuer_id}.{_PROBE}")
    except google.GoogleWalletError as exc:
        if exc.status != 404:
            return AccessCheck(False, _explain(exc.status, issuer))
    return AccessCheck(True, f"Access confirmed: {issuer.client_email} can create and update "
                             f"passes for issuer {issuer.issuer_id}.")


_PROBE = "pass-service-access-check"


def _explain(status: int, issuer: GoogleIssuer) -> str:
    if status == 401:
        return "Google refused the service-account key (deleted or disabled?). Upload a new key."
    if status == 403:
        return (f"The service account {issuer.client_email} has no access to issuer "
                f"{issuer.issuer_id}. Add it as a user of the issuer in the Google Pay & "
                "Wallet Console.")
    if status == 0:
        return "Google could not be reached. Try again in a moment."
    return f"Google answered with an error ({status}). Try again later."
