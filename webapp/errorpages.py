"""App-wide error answers: the JSON envelope under /v1, the dashboard's own page under
/dashboard, a plain page elsewhere; the unread rest of a request body is drained so that an
early answer reaches its client, and a chunked body is held to MAX_CONTENT_LENGTH like a
sized one."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING

from flask import Flask, Response, current_app, g, request
from markupsafe import escape
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.datastructures import Headers
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse
from werkzeug.wsgi import LimitedStream

from webapp.api import errors as wire
from webapp.errors import ServiceError

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

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


_STYLESHEET = "/static/holder/holder.css"


def page_html(title: str) -> str:
    """A plain error page in the holder pages' look; needs no request (gunicorn.conf.py
    writes it too), and no inline style (the Content-Security-Policy allows none)."""
    return ("<!doctype html><html lang=en><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width, initial-scale=1'>"
            f"<title>{escape(title)}</title><link rel=stylesheet href='{_STYLESHEET}'>"
            f"<main class=notice><h1>{escape(title)}</h1></main>")


def _page(status: int, title: str) -> Response:
    return Response(page_html(title), status=status, mimetype="text/html")


def _drain_unread_body(response: Response) -> Response:
    """Read and drop what is left of a request body the app answered without reading.

    An early answer (401, 429, 400, 413 for a body over MAX_CONTENT_LENGTH) leaves the body
    unread; a server that then closes the socket (gunicorn) resets the connection while the
    client is still sending, and the client never sees the answer. Bounded: a body over
    twice MAX_CONTENT_LENGTH is not read, and its client may still see a reset.
    """
    length = request.content_length
    limit = 2 * (current_app.config.get("MAX_CONTENT_LENGTH") or 0)
    if not length or length > limit or request.environ.get(_READ_BEFORE):
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
_READ_BEFORE = "webapp.chunked_body_read"  # the environ key: nothing is left to drain


class ChunkedBodyLimit:
    """WSGI middleware: reads a chunked request body (no Content-Length) before the app
    sees it and gives it its length, so that one over MAX_CONTENT_LENGTH is refused with
    413 by the same code as a sized one (Werkzeug would cut it short at the limit and the
    app would answer for a truncated body). Over the limit, the rest is read and dropped up
    to twice the limit, as `_drain_unread_body` does, so that the 413 reaches its client."""

    def __init__(self, app: Flask, wsgi_app: WSGIApplication) -> None:
        self.app, self.wsgi_app = app, wsgi_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse
                 ) -> Iterable[bytes]:
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if limit and _is_chunked(environ):
            stream = environ["wsgi.input"]
            body = _read(stream, limit + 1)
            length = len(body)
            if length > limit:
                length += _discard(stream, limit)
                body, environ[_READ_BEFORE] = b"", True
            # From here on it is a body of that length (Werkzeug ignores a Content-Length
            # beside Transfer-Encoding: chunked).
            environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(length)
            environ.pop("wsgi.input_terminated", None)
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.wsgi_app(environ, start_response)


def _is_chunked(environ: WSGIEnvironment) -> bool:
    """A body the server ends for the app (it said no length, and the server dechunks)."""
    return (not environ.get("CONTENT_LENGTH") and bool(environ.get("wsgi.input_terminated"))
            and "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower())


def _read(stream: IO[bytes], size: int) -> bytes:
    body = bytearray()
    while len(body) < size:
        chunk = stream.read(min(_CHUNK, size - len(body)))
        if not chunk:
            break
        body += chunk
    return bytes(body)


def _discard(stream: IO[bytes], size: int) -> int:
    dropped = 0
    while dropped < size:
        chunk = stream.read(min(_CHUNK, size - dropped))
        if not chunk:
            break
        dropped += len(chunk)
    return dropped


def init_app(app: Flask) -> None:
    """Register the handlers."""

    app.wsgi_app = ChunkedBodyLimit(app, app.wsgi_app)  # type: ignore[method-assign]
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
