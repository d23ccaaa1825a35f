"""App-wide error answers: the JSON envelope under /v1, the dashboard's own page under
/dashboard, a plain page elsewhere; and the unread rest of a request body is drained so
that an early answer reaches its client."""

from __future__ import annotations

import logging
from typing import IO

from flask import Flask, Response, current_app, g, request
from markupsafe import escape
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.datastructures import Headers
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse
from werkzeug.wsgi import LimitedStream

from webapp.api import errors as wire
from webapp.errors import ServiceError

log = logging.getLogger("webapp.errors")


def _is_api() -> bool:
    return request.path == "/v1" or request.path.startswith("/v1/")


def _dashboard_page(status: int, fallback_title: str, *, signed_in: bool = True,
                    headers: Headers | None = None) -> Response | None:
    """The dashboard's page for a path under /dashboard (None elsewhere), with the error's
    own headers (`Allow` on a 405); the plain page if the dashboard's cannot be drawn."""
    from webapp.dashboard import errors as dashboard

    if not dashboard.is_dashboard():
        return None
    try:
        response = dashboard.for_status(status, signed_in=signed_in)
        for name, value in (headers or Headers()).items():
            if name.lower() not in ("content-type", "content-length"):
                response.headers.add(name, value)
        return response
    except Exception:
        log.exception("dashboard error page failed requestId=%s", g.get("request_id"))
        return _page(status, fallback_title)


def _page(status: int, title: str) -> Response:
    body = (f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
            f"<body style='font-family:system-ui;padding:2rem'><h1>{escape(title)}</h1></body>")
    return Response(body, status=status, mimetype="text/html")


def _drain_unread_body(response: Response) -> Response:
    """Read and drop what is left of a request body the app answered without reading.

    An early answer (401, 429, 400, 413 for a body over MAX_CONTENT_LENGTH) leaves the body
    unread; a server that then closes the socket (gunicorn) resets the connection while the
    client is still sending, and the client never sees the answer. Bounded: a body over
    twice MAX_CONTENT_LENGTH is not read, and its client may still see a reset.
    """
    length = request.content_length
    limit = 2 * (current_app.config.get("MAX_CONTENT_LENGTH") or 0)
    if not length or length > limit:
        return response
    stream: IO[bytes] | LimitedStream
    try:
        stream = request.stream  # tracks what the app read; nothing is read twice
    except RequestEntityTooLarge:  # over MAX_CONTENT_LENGTH: the app read nothing
        stream = LimitedStream(request.environ["wsgi.input"], length)
    try:
        while stream.read(_CHUNK):
            pass
    except Exception:  # the client went away: nothing left to protect
        log.debug("client left while its request body was drained requestId=%s",
                  g.get("request_id"))
    return response


_CHUNK = 64 * 1024


def init_app(app: Flask) -> None:
    """Register the handlers."""

    app.after_request(_drain_unread_body)

    @app.errorhandler(ServiceError)
    def _service_error(exc: ServiceError) -> Response:
        if _is_api():
            return wire.from_service_error(exc)
        return _page(404 if exc.code == "resource_missing" else 400, exc.message)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> BaseResponse:
        if _is_api():
            return wire.from_http_exception(exc)
        response = exc.get_response()
        if not exc.code:
            return response
        title = f"{exc.code} {exc.name}"
        return (_dashboard_page(exc.code, title, headers=response.headers)
                or _page(response.status_code, title))

    @app.errorhandler(OperationalError)
    def _database_down(exc: DBAPIError) -> Response:
        log.error("database unavailable requestId=%s: %s", g.get("request_id"), type(exc).__name__)
        if _is_api():
            return wire.unavailable()
        return (_dashboard_page(503, "Temporarily unavailable", signed_in=False)
                or _page(503, "Temporarily unavailable"))

    @app.errorhandler(Exception)
    def _unhandled(exc: Exception) -> Response:
        log.exception("unhandled error requestId=%s", g.get("request_id"))
        if _is_api():
            return wire.internal_error()
        return _dashboard_page(500, "Something went wrong") or _page(500, "Something went wrong")
