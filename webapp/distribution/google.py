"""Google Wallet doors: the save links behind the holder page's "Add to Google Wallet"
button, and Google's save/delete callbacks (no key, no CSRF: the body is signed)."""

from __future__ import annotations

from collections.abc import Callable

from flask import (
    Response,
    abort,
    current_app,
    g,
    jsonify,
    make_response,
    redirect,
    request,
)
from werkzeug.wrappers import Response as BaseResponse

from webapp.distribution import bp
from webapp.distribution import holder_view as view
from webapp.errors import NotFound
from webapp.extensions import limiter
from webapp.services.google import callbacks, save


def _callback_limit() -> str:
    return f"{current_app.config['RATE_LIMIT_GOOGLE_CALLBACKS']}/minute"


@bp.get("/p/<short_id>/google")
def google_save_by_short_id(short_id: str) -> BaseResponse:
    """302 to Google's save page for a pass's object."""
    return _save(lambda: save.for_short_id(short_id), private=False)


@bp.get("/d/<token>/google")
def google_save_by_token(token: str) -> BaseResponse:
    """302 to Google's save page, behind a download link."""
    return _save(lambda: save.for_token(token), private=True)


@bp.post("/wallet/google/callbacks")
@limiter.limit(_callback_limit, scope="google-callbacks", override_defaults=True)
def google_callback() -> Response:
    """Google tells us a holder saved or removed a pass."""
    if (request.content_length or 0) > callbacks.MAX_BODY:
        abort(413)
    outcome = callbacks.receive(request.stream.read(callbacks.MAX_BODY + 1))
    return make_response(jsonify({"status": outcome.code}), outcome.status)


def _save(find: Callable[[], save.SaveLink], *, private: bool) -> BaseResponse:
    try:
        link = find()
    except NotFound:
        abort(404)
    if link.gone is not None:
        return view.gone(link.gone, 410, private=private)
    if link.url is None:
        return _unavailable(link.unavailable or "wallet_unavailable")
    response = redirect(link.url, 302)
    response.headers["Cache-Control"] = "no-store"  # minted per visit
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _unavailable(reason: str) -> Response:
    """503: retry soon when Google is down; otherwise the issuer has something to fix."""
    transient = reason in ("wallet_unavailable", "wallet_pending")
    text = ("Google Wallet is not reachable right now; try again in a minute." if transient
            else "This pass cannot be added to Google Wallet at the moment.")
    response = make_response(text, 503)
    response.mimetype = "text/plain"
    response.headers["Cache-Control"] = "no-store"
    if transient:
        g.retry_after = "30"  # the app-wide hook keeps only intended Retry-After headers
    return response
