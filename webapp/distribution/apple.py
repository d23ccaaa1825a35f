"""Apple Wallet doors: the signed pass behind "Add to Apple Wallet", and the Wallet web
service devices call (`webServiceURL` = `{BASE_URL}/wallet/apple`; Apple's exact statuses).

A pass link that cannot give the signed pass answers the pass's page saying why
(`holder_view.wallet_refused`), never a bare error.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Response, current_app, jsonify, make_response, request

from webapp.distribution import bp
from webapp.distribution import holder_view as view
from webapp.errors import NotFound
from webapp.extensions import limiter
from webapp.services.apple import passes, registrations
from webapp.services.apple.registrations import Answer
from webapp.services.passes import holder

_V1 = "/wallet/apple/v1"
_REGISTRATION = f"{_V1}/devices/<device_id>/registrations/<pass_type>/<serial>"


@bp.get("/p/<short_id>/apple.pkpass")
def apple_pass_by_short_id(short_id: str) -> Response:
    """The signed pass of a permanent page."""
    return _pkpass(lambda: passes.for_short_id(short_id),
                   lambda: holder.by_short_id(short_id, view.reader_languages()),
                   private=False)


@bp.get("/d/<token>/apple.pkpass")
def apple_pass_by_token(token: str) -> Response:
    """The signed pass behind a download link."""
    return _pkpass(lambda: passes.for_token(token),
                   lambda: holder.by_token(token, view.reader_languages()), private=True)


def _pkpass(find: Callable[[], passes.Download], page: Callable[[], holder.HolderPage], *,
            private: bool) -> Response:
    try:
        found = find()
    except NotFound:  # unknown, or not issued for Apple Wallet
        return view.gone("unknown", 404, private=private)
    if found.gone is not None:  # the pass page says why (and who issued a voided pass)
        return view.respond(page, private=private)
    if found.data is None:
        return view.wallet_refused(page, "apple", found.unavailable or "wallet_unavailable",
                                   private=private)
    return _pass_response(found.data, f"{found.short_id or 'pass'}.pkpass", private=private)


def _pass_response(data: bytes, filename: str, *, private: bool) -> Response:
    response = make_response(data, 200)
    response.mimetype = passes.MIME_TYPE
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store" if private else "private, no-cache"
    return response


def _token() -> str | None:
    """The `ApplePass <token>` credential of the request, if that is its scheme."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value if scheme == "ApplePass" and value else None


def _answer(answer: Answer) -> Response:
    if answer.body is not None:
        response = make_response(jsonify(answer.body), answer.status)
    else:
        response = make_response("", answer.status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _web_service_limit() -> str:
    return f"{current_app.config['RATE_LIMIT_APPLE_WEB_SERVICE']}/minute"


# Devices, often many behind one carrier NAT address, call the web service: it has a limit
# of its own per client IP instead of the holder pages' public one.
_web_service = limiter.shared_limit(_web_service_limit, scope="apple-web-service",
                                    override_defaults=True)


@bp.post(_REGISTRATION)
@_web_service
def apple_register(device_id: str, pass_type: str, serial: str) -> Response:
    """A device registers for the pass's updates (201 new, 200 known, 401)."""
    body = request.get_json(silent=True)
    push_token = body.get("pushToken") if isinstance(body, dict) else None
    return _answer(registrations.register(device_id, pass_type, serial, _token(),
                                          push_token))


@bp.delete(_REGISTRATION)
@_web_service
def apple_unregister(device_id: str, pass_type: str, serial: str) -> Response:
    """A device stops receiving the pass's updates (200, 401)."""
    return _answer(registrations.unregister(device_id, pass_type, serial, _token()))


@bp.get(f"{_V1}/devices/<device_id>/registrations/<pass_type>")
@_web_service
def apple_updated_serials(device_id: str, pass_type: str) -> Response:
    """The device's passes changed since a tag (200, or 204 when there are none)."""
    return _answer(registrations.updated_serials(
        device_id, pass_type, request.args.get("passesUpdatedSince")))


@bp.get(f"{_V1}/passes/<pass_type>/<serial>")
@_web_service
def apple_latest_pass(pass_type: str, serial: str) -> Response:
    """The latest version of a pass (200 with Last-Modified, 304, 401)."""
    latest = registrations.latest(pass_type, serial, _token(),
                                  request.if_modified_since,
                                  counts_as_fetch=request.method == "GET")
    if latest.data is None:
        return _answer(latest.answer)
    response = _pass_response(latest.data, "pass.pkpass", private=True)
    response.last_modified = latest.last_modified
    return response


# Anyone may post to /log: what one client can make the log hold is bounded by the body's
# size, the lines and line length kept (services/apple/registrations), and a limit of its
# own per client IP (a device reports a problem now and then, not many times a minute).
LOG_BODY_LIMIT = 16 * 1024
LOG_RATE_LIMIT = "10/minute;100/hour"


@bp.post(f"{_V1}/log")
@_web_service
@limiter.limit(LOG_RATE_LIMIT, scope="apple-log", override_defaults=True)
def apple_log() -> Response:
    """Devices report web service problems; kept in the log (200; 413 over the size)."""
    if (request.content_length or 0) > LOG_BODY_LIMIT:
        return _answer(Answer(413))
    raw = request.stream.read(LOG_BODY_LIMIT + 1)  # a chunked body says no length
    if len(raw) > LOG_BODY_LIMIT:
        return _answer(Answer(413))
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON (or nested thousands deep)
        body = None
    return _answer(registrations.log(body.get("logs") if isinstance(body, dict) else None))
