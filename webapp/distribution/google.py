"""Google Wallet doors: the save links behind the holder page's "Add to Google Wallet"
button, and Google's save/delete callbacks (no key, no CSRF: the body is signed).

A save link that cannot send the holder to Google answers the pass's page saying why
(`holder_view.wallet_refused`), never a bare error.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, abort, current_app, jsonify, make_response, redirect, request
from werkzeug.wrappers import Response as BaseResponse

from webapp.distribution import bp
from webapp.distribution import holder_view as view
from webapp.errors import NotFound
from webapp.extensions import limiter
from webapp.services.google import callbacks, save
from webapp.services.passes import holder


def _callback_limit() -> str:
    return f"{current_app.config['RATE_LIMIT_GOOGLE_CALLBACKS']}/minute"


@bp.get("/p/<short_id>/google")
def google_save_by_short_id(short_id: str) -> BaseResponse:
    """302 to Google's save page for a pass's object."""
    return _save(lambda: save.for_short_id(short_id),
                 lambda: holder.by_short_id(short_id, view.reader_languages()), private=False)


@bp.get("/d/<token>/google")
def google_save_by_token(token: str) -> BaseResponse:
    """302 to Google's save page, behind a download link."""
    return _save(lambda: save.for_token(token),
                 lambda: holder.by_token(token, view.reader_languages()), private=True)


@bp.post("/wallet/google/callbacks")
@limiter.limit(_callback_limit, scope="google-callbacks", override_defaults=True)
def google_callback() -> Response:
    """Google tells us a holder saved or removed a pass."""
    if (request.content_length or 0) > callbacks.MAX_BODY:
        abort(413)
    outcome = callbacks.receive(request.stream.read(callbacks.MAX_BODY + 1))
    return make_response(jsonify({"status": outcome.code}), outcome.status)


def _save(find: Callable[[], save.SaveLink], page: Callable[[], holder.HolderPage], *,
          private: bool) -> BaseResponse:
    try:
        link = find()
    except NotFound:  # unknown, or not issued for Google
        return view.gone("unknown", 404, private=private)
    if link.gone is not None:  # the pass page says why (and who issued a voided pass)
        return view.respond(page, private=private)
    if link.url is None:
        return view.wallet_refused(page, "google", link.unavailable or "wallet_unavailable",
                                   private=private)
    response = redirect(link.url, 302)
    response.headers["Cache-Control"] = "no-store"  # minted per visit
    return response

