"""`/p/<shortId>` and `/d/<token>`: the page a holder opens to add a pass.

Active: the card, the wallet buttons in the device's order, and on a desktop a QR code of
the page. Voided, expired or revoked: 410; unknown: 404; neither shows anything of a pass.
"""

from __future__ import annotations

from flask import Response

from webapp.distribution import bp
from webapp.distribution import holder_view as view
from webapp.services.passes import holder


@bp.context_processor
def _page_defaults() -> dict[str, str]:
    """Language and stylesheet for every holder template rendered by a public door."""
    return {"lang": view.lang(), "stylesheet": view.stylesheet()}


@bp.get("/p/<short_id>")
def pass_page(short_id: str) -> Response:
    """The permanent page of a pass."""
    return view.respond(lambda: holder.by_short_id(short_id), private=False)


@bp.get("/d/<token>")
def download_page(token: str) -> Response:
    """The page behind an expiring, revocable download link."""
    return view.respond(lambda: holder.by_token(token), private=True)
