"""APNs over HTTP/2 for Wallet passes: `POST /3/device/<pushToken>` with
`apns-topic: <passTypeIdentifier>` and the body `{}`, authenticated by TLS with the
certificate (and key) that signs the passes.

One client per certificate, kept for the process: a single HTTP/2 connection carrying many
streams at once (APNs treats rapid reconnects as abuse). The clients live on one event
loop in a daemon thread, so synchronous callers (jobs, requests) share the connections.

The connection (`http2.py`) drives the `h2` state machine (the HTTP/2 engine under httpx)
over asyncio TLS itself: httpx writes every frame of every request separately, which capped
pushes at a few hundred per second here; this writes the frames of all streams started in
one loop turn at once (docs/decisions.md "Apple Wallet").
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import ssl
import tempfile
import threading
import time
from collections import deque
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import h2.exceptions

from webapp.wallets.apple.http2 import Connection

CONCURRENCY = 500  # streams in flight per client; APNs announces its own maximum
REQUEST_TIMEOUT = 15.0  # seconds for a connection to open or a push to be answered
RECONNECT_AFTER = 2.0  # seconds a failed connection attempt is not repeated
BODY = b"{}"
TRANSPORT_ERROR = 0  # PushResult.status when no HTTP answer came back


@dataclass(frozen=True)
class PushResult:
    """APNs' answer for one device token: the HTTP status (0 without an answer), its
    `reason` and, for 410, the `timestamp` (ms) since which the token is invalid."""

    token: str
    status: int
    reason: str | None = None
    timestamp_ms: int | None = None

    @property
    def certificate_rejected(self) -> bool:
        """APNs (or its TLS handshake) refused our certificate."""
        return self.status == 403 or self.reason == "TlsCertificateRejected"


_T = TypeVar("_T")


class _Loop:
    """An asyncio loop running forever in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="apns",
                                       daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, _T], timeout: float | None = None) -> _T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)


_loop: _Loop | None = None
_loop_lock = threading.Lock()


def _background() -> _Loop:
    global _loop
    with _loop_lock:
        if _loop is None or not _loop.thread.is_alive():
            _loop = _Loop()
        return _loop


class ApnsClient:
    """Pushes to APNs with one certificate over one HTTP/2 connection (opened on first
    use, opened again after it drops)."""

    def __init__(self, base_url: str, certificate_chain_pem: bytes, key_pem: bytes,
                 ca_file: str | None = None, concurrency: int = CONCURRENCY):
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "", parts.port or 443
        self.authority = parts.netloc
        self.context = _ssl_context(certificate_chain_pem, key_pem, ca_file)
        self.context.set_alpn_protocols(["h2"])
        self.concurrency = concurrency
        self._connection: Connection | None = None
        self._opening: asyncio.Lock | None = None
        self._failed: tuple[float, BaseException] | None = None

    def push(self, tokens: Iterable[str], topic: str, *, push_type: str | None = None
             ) -> list[PushResult]:
        """Push `{}` to every token (concurrently); one result per token, in order."""
        return _background().run(self.push_async(list(tokens), topic, push_type))

    async def push_async(self, tokens: list[str], topic: str, push_type: str | None = None
                         ) -> list[PushResult]:
        """The same, on the client's loop: each token's request is started as soon as
        `concurrency` and the server's limit allow."""
        headers = [("apns-topic", topic)]
        if push_type:
            headers += [("apns-push-type", push_type),
                        ("apns-priority", "5" if push_type == "background" else "10")]
        batch = _Batch(self, tokens)
        try:
            for index, token in enumerate(tokens):
                await batch.gate.acquire()
                try:
                    connection = await self._connected()
                    await connection.room(len(BODY), REQUEST_TIMEOUT)
                    stream_id = connection.start(f"/3/device/{token}", headers, BODY,
                                                 partial(batch.answered, index))
                except _FAILURES as exc:
                    batch.settle(index, self._failure(token, exc))
                    continue
                batch.started(index, connection, stream_id)
            return await batch.results()
        finally:
            batch.stop()

    def _failure(self, token: str, exc: BaseException) -> PushResult:
        stale = self._failed is None or time.monotonic() - self._failed[0] >= RECONNECT_AFTER
        if stale and (self._connection is None or self._connection.closed):
            self._failed = (time.monotonic(), exc)  # the batch fails fast: no reconnect storm
        return PushResult(token, TRANSPORT_ERROR, _transport_reason(exc))

    async def _connected(self) -> Connection:
        connection = self._connection
        if connection is not None and not connection.closed:
            return connection
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if self._connection is None or self._connection.closed:
                failed = self._failed
                if failed is not None and time.monotonic() - failed[0] < RECONNECT_AFTER:
                    raise failed[1]  # the rest of a batch fails fast, not one timeout each
                try:
                    self._connection = await asyncio.wait_for(
                        Connection.open(self.host, self.port, self.authority, self.context),
                        REQUEST_TIMEOUT)
                except (OSError, ssl.SSLError, TimeoutError, ConnectionError) as exc:
                    self._failed = (time.monotonic(), exc)
                    raise
                self._failed = None
            return self._connection

    def close(self) -> None:
        """Close the connection (a new push opens another)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            _background().run(connection.close(), 10)


_FAILURES = (OSError, ssl.SSLError, TimeoutError, ConnectionError, h2.exceptions.H2Error)


class _Batch:
    """The pushes of one `push_async`: their results in token order, the room left under the
    client's concurrency, and their deadlines. A watch every WATCH_EVERY seconds fails the
    pushes not answered in REQUEST_TIMEOUT and resets their streams: no timer per push."""

    WATCH_EVERY = 0.25  # seconds

    def __init__(self, client: ApnsClient, tokens: list[str]) -> None:
        self.client, self.tokens = client, tokens
        self.gate = asyncio.Semaphore(client.concurrency)
        self._results: list[PushResult | None] = [None] * len(tokens)
        self._left = len(tokens)
        self._loop = asyncio.get_running_loop()
        self._done = self._loop.create_future()
        # (deadline, token's index, its connection and stream), oldest first
        self._deadlines: deque[tuple[float, int, Connection, int]] = deque()
        self._watch: asyncio.TimerHandle | None = None

    def started(self, index: int, connection: Connection, stream_id: int) -> None:
        self._deadlines.append((self._loop.time() + REQUEST_TIMEOUT, index, connection,
                                stream_id))
        if self._watch is None:
            self._watch = self._loop.call_later(self.WATCH_EVERY, self._expire)

    def answered(self, index: int, status: int, body: bytes, exc: BaseException | None
                 ) -> None:
        token = self.tokens[index]
        self.settle(index, self.client._failure(token, exc) if exc is not None
                    else _result(token, status, body))

    def settle(self, index: int, result: PushResult) -> None:
        """A push's result: the first one counts."""
        if self._results[index] is not None:
            return
        self._results[index] = result
        self.gate.release()
        self._left -= 1
        if not self._left and not self._done.done():
            self._done.set_result(None)

    async def results(self) -> list[PushResult]:
        if self._left:
            await self._done
        return cast(list[PushResult], self._results)

    def stop(self) -> None:
        """The batch is over (done, or its caller gone): no more watching, and the streams of
        pushes still unanswered (a caller gone) are reset."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        for _deadline, index, connection, stream_id in self._deadlines:
            if self._results[index] is None:
                connection.cancel(stream_id)
        self._deadlines.clear()

    def _expire(self) -> None:
        now, deadlines = self._loop.time(), self._deadlines
        while deadlines and (self._results[deadlines[0][1]] is not None
                             or deadlines[0][0] <= now):
            _deadline, index, connection, stream_id = deadlines.popleft()
            if self._results[index] is None:
                connection.cancel(stream_id)
                self.settle(index, self.client._failure(
                    self.tokens[index], TimeoutError("APNs did not answer in time")))
        self._watch = self._loop.call_later(self.WATCH_EVERY, self._expire) if self._left \
            else None


def _result(token: str, status: int, body: bytes) -> PushResult:
    if status == 200:
        return PushResult(token, 200)
    reason, stamp = None, None
    with contextlib.suppress(ValueError, AttributeError, TypeError, OverflowError):
        answer = json.loads(body)
        reason = str(answer.get("reason")) if answer.get("reason") else None
        stamp = int(answer["timestamp"]) if answer.get("timestamp") is not None else None
    return PushResult(token, status, reason, stamp)


def _transport_reason(exc: BaseException) -> str:
    text = str(exc).lower()
    seen: BaseException | None = exc
    while seen is not None:  # the TLS alert may be the cause of the httpx error
        text += " " + str(seen).lower()
        seen = seen.__cause__ or seen.__context__
    if isinstance(exc, ssl.SSLError) and "alert" in text:
        # The server ended TLS with an alert (unknown CA, bad or missing certificate...):
        # it refused our certificate. Our own check of its certificate fails without one.
        return "TlsCertificateRejected"
    return f"ConnectionFailed: {type(exc).__name__}"


def _ssl_context(chain_pem: bytes, key_pem: bytes, ca_file: str | None) -> ssl.SSLContext:
    """A TLS client context presenting the certificate chain; the key touches the disk
    only for the moment `load_cert_chain` reads it (a private 0600 file)."""
    context = ssl.create_default_context(cafile=ca_file)
    with tempfile.TemporaryDirectory(prefix="apns-") as folder:
        cert_path, key_path = os.path.join(folder, "c.pem"), os.path.join(folder, "k.pem")
        for path, data in ((cert_path, chain_pem), (key_path, key_pem)):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        context.load_cert_chain(cert_path, key_path)
    return context


_clients: dict[str, ApnsClient] = {}
_clients_lock = threading.Lock()


def client_for(base_url: str, certificate_pem: str, wwdr_pem: str, key_pem: bytes,
               ca_file: str | None = None) -> ApnsClient:
    """The process's client for a certificate and APNs address (made once, reused)."""
    chain = (certificate_pem.strip() + "\n" + wwdr_pem.strip() + "\n").encode()
    key = hashlib.sha256(b"\0".join([base_url.encode(), chain, key_pem,
                                     (ca_file or "").encode()])).hexdigest()
    with _clients_lock:
        found = _clients.get(key)
        if found is None:
            found = _clients[key] = ApnsClient(base_url, chain, key_pem, ca_file)
        return found


def reset() -> None:
    """Close and forget every client (tests; a certificate replaced)."""
    with _clients_lock:
        clients = list(_clients.values())
        _clients.clear()
    for client in clients:
        with contextlib.suppress(Exception):
            client.close()
