"""The service on a free loopback port (Werkzeug's threaded server) for the client tests, with
faults a test arms: the next matching request's answer lost or refused.

A fault is armed from Python (`Faults.arm`) or over HTTP (`POST /_faults` with
`{"method", "path", "kind"}`, for the TypeScript tests; `GET /_seen` lists the requests
seen): `kind` is `lost` (the app runs, the
client gets 503 with Retry-After 0 instead of its answer), `dropped` (the app runs, the
connection is closed without an answer), `busy` (503, the app never sees it) or `limited`
(429 with Retry-After 1, the app never sees it).
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from werkzeug.serving import make_server

KINDS = ("lost", "dropped", "busy", "limited")
_REFUSALS = {"lost": (503, "0"), "busy": (503, "0"), "limited": (429, "1")}


@dataclass
class Seen:
    method: str
    path: str
    idempotency_key: str | None


@dataclass
class Faults:
    """WSGI middleware over `app`; `seen` lists every request that reached it."""

    app: Callable[..., Iterable[bytes]]
    armed: list[tuple[str, str, str]] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def arm(self, method: str, path: str, kind: str) -> None:
        assert kind in KINDS, kind
        with self.lock:
            self.armed.append((method.upper(), path, kind))

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        if path == "/_seen":
            body = json.dumps([{"method": s.method, "path": s.path,
                                "idempotencyKey": s.idempotency_key} for s in self.seen])
            start_response("200 OK", [("Content-Type", "application/json")])
            return [body.encode()]
        if path == "/_faults" and method == "POST":
            plan = json.loads(environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"])))
            self.arm(plan["method"], plan["path"], plan["kind"])
            start_response("204 No Content", [])
            return []
        with self.lock:
            self.seen.append(Seen(method, path, environ.get("HTTP_IDEMPOTENCY_KEY")))
            kind = next((k for m, p, k in self.armed if (m, p) == (method, path)), None)
            if kind is not None:
                self.armed.remove((method, path, kind))
        if kind is None:
            return self.app(environ, start_response)
        if kind in ("lost", "dropped"):  # the app does the work; its answer never arrives
            answer = self.app(environ, lambda *args, **kw: lambda data: None)
            b"".join(answer)
            getattr(answer, "close", lambda: None)()
        if kind == "dropped":
            environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
            start_response("500 Dropped", [])
            return []
        status, retry_after = _REFUSALS[kind]
        body = json.dumps({"error": {"type": "api_error" if status == 503 else
                                     "rate_limit_error", "message": f"injected {kind}"},
                           "requestId": "req_injected"}).encode()
        start_response(f"{status} Injected", [("Content-Type", "application/json"),
                                              ("Retry-After", retry_after),
                                              ("Content-Length", str(len(body)))])
        return [body]


@dataclass
class Live:
    base_url: str
    key: str
    faults: Faults

    def posts(self, path: str) -> list[Seen]:
        return [s for s in self.faults.seen if (s.method, s.path) == ("POST", path)]


@contextmanager
def serving(app: Any, key: str) -> Iterator[Live]:
    """`app` behind Werkzeug's threaded server and the fault middleware."""
    app.config.update(JOBS_SYNCHRONOUS=True, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True,
                      WEBHOOK_TIMEOUT_SECONDS=5)
    faults = Faults(app.wsgi_app)
    app.wsgi_app = faults
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Live(f"http://127.0.0.1:{server.server_port}", key, faults)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
