"""App-wide error answers: the JSON envelope under /v1, a plain page elsewhere."""

from __future__ import annotations

import logging

from flask import Flask, Response, g, request
from markupsafe import escape
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.exceptions import HTTPException

from webapp.api import errors as wire
from webapp.errors import ServiceError

log = logging.getLogger("webapp.errors")


def _is_api() -> bool:
    return request.path == "/v1" or request.path.startswith("/v1/")


def _page(status: int, title: str) -> Response:
    body = (f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
            f"<body style='font-family:system-ui;padding:2rem'><h1>{escape(title)}</h1></body>")
    return Response(body, status=status, mimetype="text/html")


def init_app(app: Flask) -> None:
    """Register the handlers."""

    @app.errorhandler(ServiceError)
    def _service_error(exc: ServiceError) -> Response:
        if _is_api():
            return wire.from_service_error(exc)
        return _page(404 if exc.code == "resource_missing" else 400, exc.message)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response:
        if _is_api():
            return wire.from_http_exception(exc)
        response = exc.get_response()
        return _page(response.status_code, f"{exc.code} {exc.name}") if exc.code else response

    @app.errorhandler(OperationalError)
    def _database_down(exc: DBAPIError) -> Response:
        log.error("database unavailable requestId=%s: %s", g.get("request_id"), type(exc).__name__)
        if _is_api():
            return wire.unavailable()
        return _page(503, "Temporarily unavailable")

    @app.errorhandler(Exception)
    def _unhandled(exc: Exception) -> Response:
        log.exception("unhandled error requestId=%s", g.get("request_id"))
        if _is_api():
            return wire.internal_error()
        return _page(500, "Something went wrong")
