"""Request IDs and one log line per request; never a key, token or email in a log."""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, Response, g, request

log = logging.getLogger("webapp.request")

# Path segments that are secrets: download-link tokens, Apple device and push tokens.
_SECRET_PATHS = [
    (re.compile(r"^/d/[^/]+"), "/d/[token]"),
    (re.compile(r"^(/wallet/apple/v1/devices/)[^/]+"), r"\1[device]"),
]


def redact_path(path: str) -> str:
    """The request path with secret segments replaced."""
    for pattern, replacement in _SECRET_PATHS:
        path = pattern.sub(replacement, path)
    return path


def init_app(app: Flask) -> None:
    """Give every request an ID (`Request-Id` header, `g.request_id`) and log it once."""
    logging.basicConfig(level=app.config.get("LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")

    @app.before_request
    def _start() -> None:
        g.request_id = "req_" + uuid.uuid4().hex
        g.started = time.perf_counter()

    @app.after_request
    def _finish(response: Response) -> Response:
        request_id = g.get("replayed_request_id") or g.get("request_id")
        if request_id:
            response.headers["Request-Id"] = request_id
        elapsed = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
        ctx = g.get("ctx")
        log.info(
            "requestId=%s method=%s path=%s status=%s durationMs=%.1f org=%s env=%s",
            g.get("request_id"), request.method, redact_path(request.path),
            response.status_code, elapsed, getattr(ctx, "organization_id", "-"),
            getattr(ctx, "environment", "-"),
        )
        return response
