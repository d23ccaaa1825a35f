"""`/p/<shortId>` and `/d/<token>`: the page a holder opens to add a pass.

Active: the card, the wallet buttons in the device's order, and on a desktop a QR code of
the page. Voided, expired or revoked: 410; unknown: 404; neither shows anything of a pass.
"""

from __future__ import annotations

from flask import Response, request

from webapp.distribution import bp
from webapp.distribution import holder_view as view
from webapp.services.insights import record as insights
from webapp.services.passes import holder


@bp.context_processor
def _page_defaults() -> dict[str, str]:
    """Language and stylesheet for every holder template rendered by a public door."""
    return {"lang": view.lang(), "stylesheet": view.stylesheet()}


@bp.get("/p/<short_id>")
def pass_page(short_id: str) -> Response:
    """The permanent page of a pass."""
    return view.respond(lambda: _viewed(holder.by_short_id(short_id, view.reader_languages())),
                        private=False)


@bp.get("/d/<token>")
def download_page(token: str) -> Response:
    """The page behind an expiring, revocable download link."""
    return view.respond(lambda: _viewed(holder.by_token(token, view.reader_languages())),
                        private=True)


def _viewed(page: holder.HolderPage) -> holder.HolderPage:
    """Count a holder's look at an active pass's page (insights); HEAD is no look."""
    if page.pass_ is not None and page.gone is None and request.method == "GET":
        insights.page_viewed(page.pass_)
    return page
