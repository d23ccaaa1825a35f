"""A local webhook receiver: a threaded HTTP server that records every request.

`answer` decides each response: `(status, headers, delay_seconds)`; by default 200 at once.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    answered: int | None = None  # the status sent back (None: the client was gone)


Answer = Callable[[Received], tuple[int, dict[str, str], float]]


@dataclass
class Receiver:
    """Start with `Receiver().start()`; `stop()` ends it."""

    requests: list[Received] = field(default_factory=list)
    answer: Answer = field(default=lambda r: (200, {}, 0.0))
    _cond: threading.Condition = field(default_factory=threading.Condition)

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body leave at once, no 40 ms stall

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                item = Received("POST", self.path, {k.lower(): v for k, v in
                                                    self.headers.items()}, self.rfile.read(length))
                status, headers, delay = receiver.answer(item)
                if delay:
                    time.sleep(delay)
                try:
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"ok")
                    item.answered = status
                except OSError:
                    item.answered = None
                with receiver._cond:
                    receiver.requests.append(item)
                    receiver._cond.notify_all()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks"

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        """Wait until `count` requests arrived; all of them."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self.requests) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.requests)} of {count} webhooks arrived")
                self._cond.wait(left)
            return list(self.requests)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Tarpit:
    """A receiver that takes connections and never answers; `stop()` drops them."""

    def __init__(self) -> None:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hooks"
        self.held: list[Any] = []
        self.lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn = self.sock.accept()[0]
            except OSError:
                return
            with self.lock:
                if self.stopped:
                    conn.close()
                    return
                self.held.append(conn)

    def stop(self) -> None:
        self.sock.close()
        with self.lock:
            self.stopped = True
            for conn in self.held:
                conn.close()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # a client hung up (a bench closing its connections): nothing to report
        super().handle_error(request, client_address)
