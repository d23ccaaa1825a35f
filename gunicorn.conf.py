"""gunicorn's settings for this service. gunicorn reads ./gunicorn.conf.py by itself, so
run it from the repository's root: `.venv/bin/gunicorn -w 2 -b 0.0.0.0:8000 wsgi:app`
(command-line options win over this file).

- Limits: a request line of at most 4094 bytes (else 414), at most 100 header fields of at
  most 8190 bytes each (else 431).
- `timeout`: a sync worker busy with one request for longer is stopped (SIGABRT). Its
  client gets 503 (the worker answers as it exits), or, if the worker is stuck outside
  Python and has to be killed, a connection closed without an answer. No request of ours is
  meant to come near it (bodies, validation and answers are bounded); an `Idempotency-Key`
  makes the retry safe.
- The answers gunicorn writes itself (the limits above, malformed HTTP, an application that
  fails before answering) come in the service's shapes: the API's JSON error for `/v1` (or
  a request whose path could not be read), the plain error page for people; with the
  service's security headers and a `Request-Id` that is in the log line.
- The access log (off unless `--access-logfile` is given) redacts tokens, pass page IDs,
  device IDs and query values like the app's own log, and leaves out `/healthz`, `/readyz`
  and `/metrics` (a probe every few seconds).
- Metrics (`webapp.metrics`): the node's folder of metric files is emptied of the web
  processes' files as gunicorn starts, and a worker that exits is marked dead.
"""

from __future__ import annotations

import json
import ssl
import uuid
from typing import Any

from gunicorn import glogging, util
from gunicorn.http import errors as http_errors
from gunicorn.workers.sync import SyncWorker

limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
timeout = 30

# The statuses gunicorn gives the requests it refuses (gunicorn.workers.base.handle_error),
# with the API's error type, code and message; any other client error is 400.
_REFUSED: list[tuple[type[BaseException], int, str, str]] = [
    (http_errors.LimitRequestLine, 414, "request_line_too_long",
     f"The request line is longer than {limit_request_line} bytes."),
    (http_errors.LimitRequestHeaders, 431, "header_fields_too_large",
     f"The request has more than {limit_request_fields} header fields, or one longer than "
     f"{limit_request_field_size} bytes."),
    (http_errors.UnsupportedTransferCoding, 501, "unsupported_transfer_coding",
     "The request's Transfer-Encoding is not supported."),
    (http_errors.ExpectationFailed, 417, "expectation_failed",
     "The request's Expect header cannot be met."),
    (http_errors.ForbiddenProxyRequest, 403, "forbidden", "The request is not allowed."),
    (ssl.SSLError, 403, "forbidden", "The request is not allowed."),
]
_MALFORMED = (400, "invalid_request_error", "malformed_request",
              "The request is not valid HTTP/1.1.")
# The worker was stopped in the middle of the request: past `timeout` (SIGABRT), or told to
# quit. The app's answer when its database is down (webapp/api/errors.unavailable).
_STOPPED = (503, "api_error", "service_unavailable",
            "The service is temporarily unavailable. Retry shortly.")


def answer_for(exc: BaseException) -> tuple[int, str, str, str]:
    """The status, and the API error's type, code and message, of a request gunicorn could
    not answer (the code is empty for a 500, as the app's own)."""
    from webapp.api import errors as wire

    if isinstance(exc, SystemExit):
        return _STOPPED
    server_side = (http_errors.InvalidResponseHeader, http_errors.InvalidResponseHeaderName,
                   http_errors.ConfigurationProblem)
    if isinstance(exc, server_side) or not isinstance(exc, http_errors.ParseException
                                                      | ssl.SSLError):
        return 500, "api_error", "", wire.INTERNAL_MESSAGE
    return next(((status, "invalid_request_error", code, message)
                 for cls, status, code, message in _REFUSED if isinstance(exc, cls)),
                _MALFORMED)


def error_response(answer: tuple[int, str, str, str], path: str | None,
                   request_id: str) -> bytes:
    """The whole HTTP answer: the API's JSON error when `path` is under /v1 or unknown,
    else the plain error page people get from the app."""
    from werkzeug.http import HTTP_STATUS_CODES

    from webapp import errorpages, security_headers

    status, type_, code, message = answer
    reason = HTTP_STATUS_CODES.get(status, "Error")
    if path is None or path == "/v1" or path.startswith("/v1/"):
        error = {"type": type_, **({"code": code} if code else {}), "message": message}
        body = json.dumps({"error": error, "requestId": request_id}).encode()
        content_type = "application/json"
    else:
        body = errorpages.page_html(f"{status} {reason}").encode()
        content_type = "text/html; charset=utf-8"
    headers = {"Content-Type": content_type, "Content-Length": str(len(body)),
               "Connection": "close", "Cache-Control": "no-store", "Request-Id": request_id,
               **({"Retry-After": "5"} if status == 503 else {}),
               **security_headers.PUBLIC_HEADERS}
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(
        f"{name}: {value}\r\n" for name, value in headers.items())
    return head.encode("latin-1") + b"\r\n" + body


class Worker(SyncWorker):
    """gunicorn's sync worker, answering the requests it refuses in the service's shapes."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        from webapp.logging import redact_request_line

        request_id = "req_" + uuid.uuid4().hex
        answer = answer_for(exc)
        status = answer[0]
        read = req if req is not None else getattr(exc, "req", None)
        path = getattr(read, "path", None)
        ip = (addr or ("",))[0]
        if status >= 500:
            self.log.exception("Error handling request requestId=%s path=%s", request_id,
                               redact_request_line(path or "-"))
        else:  # gunicorn's own message may quote the request line: redacted like the logs
            self.log.warning("Invalid request from ip=%s requestId=%s status=%s: %s", ip,
                             request_id, status, redact_request_line(str(exc)))
        try:
            util.write_nonblock(client, error_response(answer, path, request_id))
        except Exception:
            self.log.debug("Failed to send error message.")


class Logger(glogging.Logger):
    """gunicorn's logger; its access log says no token, pass page ID or query value."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        from webapp.logging import QUIET_PATHS

        if environ.get("PATH_INFO") not in QUIET_PATHS:
            super().access(resp, req, environ, request_time)

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        from webapp.logging import redact_request_line

        atoms = super().atoms(resp, req, environ, request_time)
        for name in ("r", "U", "f"):  # request line, path, Referer
            if isinstance(atoms.get(name), str):
                atoms[name] = redact_request_line(atoms[name])
        if atoms.get("q"):  # the query string, without its "?"
            atoms["q"] = redact_request_line("?" + atoms["q"])[1:]
        return atoms


def on_starting(server: Any) -> None:
    """No web process of this node runs yet: their old metric files go."""
    from webapp import metrics

    folder = metrics.directory()
    folder.mkdir(parents=True, exist_ok=True)
    metrics.clean_web_files(folder)


def child_exit(server: Any, worker: Any) -> None:
    """A worker's live gauges end with it (its counters stay in the node's totals)."""
    from prometheus_client import multiprocess

    from webapp import metrics

    multiprocess.mark_process_dead(worker.pid, str(metrics.directory()))


worker_class = Worker
logger_class = Logger
