"""Request IDs and one log line per request; never a key, token or email in a log."""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, Response, g, request

log = logging.getLogger("webapp.request")
# Probes and scrapes come every few seconds: their line is at debug level (webapp.monitoring).
QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})

# Path segments that are secrets: download-link tokens, pass page IDs (a key to the pass
# too, decisions.md "Holder pages"), Apple device IDs, invitation links.
_SECRET_PATHS = [
    (re.compile(r"^/d/[^/]+"), "/d/[token]"),
    (re.compile(r"^/p/[^/]+"), "/p/[id]"),
    (re.compile(r"^(/wallet/apple/v1/devices/)[^/]+"), r"\1[device]"),
    (re.compile(r"^/dashboard/invitations/[^/]+"), "/dashboard/invitations/[token]"),
]
# The same at the start of a request target inside a line of text (a server's request line:
# `"GET /d/abc?q=x HTTP/1.1"`).
_TARGET = r"(?<![^\s\"'(])"
_SEGMENT = r"[^/\s?#\"']+"
_SECRET_TARGETS = [
    (re.compile(_TARGET + "/d/" + _SEGMENT), "/d/[token]"),
    (re.compile(_TARGET + "/p/" + _SEGMENT), "/p/[id]"),
    (re.compile(_TARGET + "(/wallet/apple/v1/devices/)" + _SEGMENT), r"\1[device]"),
    (re.compile(_TARGET + "/dashboard/invitations/" + _SEGMENT),
     "/dashboard/invitations/[token]"),
]
_QUERY = re.compile(r"\?([^\s#\"']*)")
_PARAMETER_NAME = re.compile(r"[A-Za-z_][\w.\-\[\]]{0,63}")


def redact_path(path: str) -> str:
    """The request path with secret segments replaced."""
    for pattern, replacement in _SECRET_PATHS:
        path = pattern.sub(replacement, path)
    return path


def redact_request_line(text: str) -> str:
    """`text` with the secret segments of any request target in it replaced, and every query
    value (a searched email, a cursor) too: `/d/[token]?q=[redacted]`."""
    for pattern, replacement in _SECRET_TARGETS:
        text = pattern.sub(replacement, text)
    return _QUERY.sub(_redact_query, text)


def _redact_query(match: re.Match[str]) -> str:
    parts = []
    for part in match.group(1).split("&"):
        name, equals, _value = part.partition("=")
        named = equals and _PARAMETER_NAME.fullmatch(name)  # else the part is all value
        parts.append(f"{name}=[redacted]" if named else "[redacted]")
    return "?" + "&".join(parts)


class RedactRequestLines(logging.Filter):
    """Redacts the request lines the development server (`flask run`, Werkzeug) logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:  # the line is in the arguments
            record.args = tuple(redact_request_line(arg) if isinstance(arg, str) else arg
                                for arg in record.args)
        elif not record.args:
            record.msg = redact_request_line(str(record.msg))
        return True


_werkzeug_filter = RedactRequestLines()


def init_app(app: Flask) -> None:
    """Give every request an ID (`Request-Id` header, `g.request_id`) and log it once."""
    logging.basicConfig(level=app.config.get("LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("werkzeug").addFilter(_werkzeug_filter)  # once: the same filter object

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
        log.log(
            logging.DEBUG if request.path in QUIET_PATHS else logging.INFO,
            "requestId=%s method=%s path=%s status=%s durationMs=%.1f org=%s env=%s",
            g.get("request_id"), request.method, redact_path(request.path),
            response.status_code, elapsed, getattr(ctx, "organization_id", "-"),
            getattr(ctx, "environment", "-"),
        )
        return response
