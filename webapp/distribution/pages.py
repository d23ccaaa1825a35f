"""`/p/<shortId>` and `/d/<token>`: the page a holder opens to add a pass.

Active: the card, the wallet buttons in the device's order, and on a desktop a QR code of
the page. Voided, expired or revoked: 410; unknown: 404; neither shows anything of a pass.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, make_response, render_template

from webapp.distribution import bp
from webapp.distribution import holder_view as view
from webapp.errors import NotFound
from webapp.services.passes import holder


@bp.context_processor
def _page_defaults() -> dict[str, str]:
    """Language and stylesheet for every holder template rendered by a public door."""
    return {"lang": view.lang(), "stylesheet": view.stylesheet()}


def _respond(find: Callable[[], holder.HolderPage], *, private: bool) -> Response:
    try:
        page = find()
    except NotFound:
        return view.gone("unknown", 404, private=private)
    if page.gone is not None:
        return view.gone(page.gone, 410, private=private)
    values = view.context(page, private=private)
    response = make_response(render_template("holder/pass.html", **values))
    return view.secure(response, private=private, theme=values["theme"])


@bp.get("/p/<short_id>")
def pass_page(short_id: str) -> Response:
    """The permanent page of a pass."""
    return _respond(lambda: holder.by_short_id(short_id), private=False)


@bp.get("/d/<token>")
def download_page(token: str) -> Response:
    """The page behind an expiring, revocable download link."""
    return _respond(lambda: holder.by_token(token), private=True)
