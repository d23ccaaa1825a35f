"""`/p/<shortId>` and `/d/<token>`: the page a holder opens to add a pass."""

from __future__ import annotations

from flask import Response, abort, make_response, render_template

from webapp.distribution import bp
from webapp.errors import NotFound
from webapp.services import holder

_CSP = ("default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def _respond(page: holder.HolderPage, *, private: bool) -> Response:
    if page.gone is not None:
        response = make_response(render_template("holder/gone.html", reason=page.gone), 410)
    else:
        response = make_response(render_template(
            "holder/pass.html", page=page, item=page.pass_, card=page.preview))
    response.headers["Content-Security-Policy"] = _CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    if private:  # the token is in the URL: never cache it or send it on
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
    else:
        response.headers["Cache-Control"] = "private, no-cache"
        response.headers["Referrer-Policy"] = "same-origin"
    return response


@bp.get("/p/<short_id>")
def pass_page(short_id: str) -> Response:
    try:
        page = holder.by_short_id(short_id)
    except NotFound:
        abort(404)
    return _respond(page, private=False)


@bp.get("/d/<token>")
def download_page(token: str) -> Response:
    try:
        page = holder.by_token(token)
    except NotFound:
        abort(404)
    return _respond(page, private=True)
