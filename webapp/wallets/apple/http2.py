"""A minimal HTTP/2 client connection for APNs: the `h2` state machine over asyncio TLS.

Requests become streams; the frames of every stream started in one loop turn go out in
one write; new streams wait while the server's `MAX_CONCURRENT_STREAMS` is reached or the
connection's send window is too small; a GOAWAY or a dropped connection fails the streams
in flight (their callers try again on a new connection later).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
from collections.abc import Callable, Sized
from typing import Any

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import hpack

log = logging.getLogger(__name__)

FIRST_READ = 0.5  # seconds to wait for the server's first frames
# Told a request's end: its status (0 without an answer), its body, and the error that ended it.
Answered = Callable[[int, bytes, BaseException | None], None]
SWEEP = 256  # new streams between h2's own counts, which drop its closed streams


def configuration() -> h2.config.H2Configuration:
    """The client's h2 settings. Our headers are fixed lower-case names and values checked
    where they come in (push tokens at registration, topics in certificates), and of the
    answer's headers only `:status` is read (a bad one counts as no answer): h2's checks of
    every header, both ways, cost a sixth of its work per request."""
    return h2.config.H2Configuration(client_side=True, validate_outbound_headers=False,
                                     normalize_outbound_headers=False,
                                     validate_inbound_headers=False)


class CountedConnection(h2.connection.H2Connection):
    """h2's connection, counting its open streams from the caller's table (the client's
    requests in flight, or the fake APNs's requests in progress).

    Before it opens a stream, h2 counts the open ones by walking every stream it holds (and
    drops the closed ones as it goes). With hundreds of pushes in flight, that walk was a third
    of h2's work per request. Every SWEEP-th count still walks, so closed streams cannot
    pile up.
    """

    def __init__(self, config: h2.config.H2Configuration, in_flight: Sized) -> None:
        super().__init__(config)
        self._in_flight = in_flight
        self._counts = 0

    def _walks(self) -> bool:
        self._counts += 1
        return self._counts % SWEEP == 0

    @property
    def open_outbound_streams(self) -> int:
        return super().open_outbound_streams if self._walks() else len(self._in_flight)

    @property
    def open_inbound_streams(self) -> int:
        return super().open_inbound_streams if self._walks() else len(self._in_flight)


class StateMachine(CountedConnection):
    """The client's connection: streams counted from its table, and header values sent as
    plain literals, not Huffman coded: the one that changes, the device token in the path, is
    new every time, and coding it cost more CPU on both ends than the 20 bytes it saved."""

    def __init__(self, in_flight: Sized) -> None:
        super().__init__(configuration(), in_flight)
        self.encoder = _PlainEncoder()


def request_headers(path: str, authority: str, headers: list[tuple[str, str]], size: int
                    ) -> list[tuple[str, str] | hpack.HeaderTuple]:
    """A POST's headers. Its path (a device token's) never recurs: never indexed, it takes
    no place in either end's HPACK table."""
    return [(":method", "POST"), (":scheme", "https"), hpack.NeverIndexedHeaderTuple(":path", path),
            (":authority", authority), *headers, ("content-length", str(size))]


class _PlainEncoder(hpack.Encoder):
    def encode(self, headers: Any, huffman: bool = False) -> bytes:
        return super().encode(headers, huffman=False)


class _Stream:
    __slots__ = ("answered", "body", "status")

    def __init__(self, answered: Answered) -> None:
        self.status, self.body, self.answered = 0, b"", answered


class Connection:
    """One HTTP/2 connection: requests become streams; frames of requests made in the same
    loop turn go out in one write; streams wait while the server's limit is reached. A
    request's end is told to its callback as the frame that ends it is read: no future or
    task per request (the client's share of its CPU per push, issue 34)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 authority: str):
        self.reader, self.writer, self.authority = reader, writer, authority
        self.streams: dict[int, _Stream] = {}
        self.h2 = StateMachine(self.streams)
        self.closed = False
        self.changed = asyncio.Condition()
        self._flush_scheduled = False
        self.task: asyncio.Task[None] | None = None  # the reader, once `open` starts it
        self._waking: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, host: str, port: int, authority: str, context: ssl.SSLContext
                   ) -> Connection:
        reader, writer = await asyncio.open_connection(host, port, ssl=context,
                                                       server_hostname=host)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        tls = writer.get_extra_info("ssl_object")
        if tls is None or tls.selected_alpn_protocol() != "h2":
            writer.close()
            raise ConnectionError("the APNs server did not agree to HTTP/2")
        self = cls(reader, writer, authority)
        # Read before writing: under TLS 1.3 a server that refuses our client certificate
        # says so (a TLS alert) only after the handshake; written bytes would make it reset
        # the connection instead, and a refusal would look like a network failure. Servers
        # send their SETTINGS at once (APNs does); one that waits costs FIRST_READ once.
        try:
            try:
                first = await asyncio.wait_for(reader.read(65536), FIRST_READ)
            except TimeoutError:
                first = None
            if first == b"":
                raise ConnectionError("the APNs server closed the connection at once")
            self.h2.initiate_connection()
            for event in self.h2.receive_data(first or b""):
                self._event(event)
        except BaseException:
            writer.close()
            raise
        self._flush()
        self.task = asyncio.get_running_loop().create_task(self._read())
        return self

    def has_room(self, size: int) -> bool:
        """Whether a stream with a body of `size` bytes may start now (the streams in flight
        counted by our own table, as `StateMachine` counts them)."""
        return len(self.streams) < self.h2.remote_settings.max_concurrent_streams and \
            self.h2.outbound_flow_control_window >= size

    async def room(self, size: int, timeout: float | None = None) -> None:
        """Wait until a stream with a body of `size` bytes may start, or the connection
        closes.

        :raises TimeoutError: no room after `timeout` seconds.
        """
        if not self.closed and not self.has_room(size):
            async with self.changed:
                await asyncio.wait_for(self.changed.wait_for(
                    lambda: self.closed or self.has_room(size)), timeout)

    def start(self, path: str, headers: list[tuple[str, str]], body: bytes,
              answered: Answered) -> int:
        """Start a request (after `room`): its stream's ID. `answered` is called once, when it
        ends (not after `cancel`). Its frames go out with those of the other requests started
        in this loop turn.

        :raises ConnectionError: the connection is closed.
        """
        if self.closed:
            raise ConnectionError("the APNs connection closed")
        stream_id = self.h2.get_next_available_stream_id()
        self.h2.send_headers(stream_id,
                             request_headers(path, self.authority, headers, len(body)))
        self.h2.send_data(stream_id, body, end_stream=True)
        self.streams[stream_id] = _Stream(answered)
        self._schedule_flush()
        return stream_id

    def cancel(self, stream_id: int) -> None:
        """Give up on a request (its caller stopped waiting): the stream is reset, and its
        place under the server's limit is free again."""
        if self.streams.pop(stream_id, None) is None or self.closed:
            return
        with contextlib.suppress(h2.exceptions.H2Error):
            self.h2.reset_stream(stream_id, h2.errors.ErrorCodes.CANCEL)
        self._schedule_flush()
        if self._waking is None or self._waking.done():  # one wake for a turn's resets
            self._waking = asyncio.get_running_loop().create_task(self._wake())

    async def _wake(self) -> None:
        """Requests waiting for room check it again (notifying takes the condition's lock,
        hence a task)."""
        async with self.changed:
            self.changed.notify_all()

    def _schedule_flush(self) -> None:
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        data = self.h2.data_to_send()
        if data and not self.writer.is_closing():
            self.writer.write(data)

    async def _read(self) -> None:
        try:
            while not self.closed:
                data = await self.reader.read(65536)
                if not data:
                    break
                events = self.h2.receive_data(data)
                for event in events:
                    self._event(event)
                self._flush()
                async with self.changed:
                    self.changed.notify_all()
        except (OSError, ssl.SSLError, h2.exceptions.H2Error) as exc:
            self._fail(exc)
        else:
            self._fail(ConnectionError("the APNs connection closed"))
        async with self.changed:
            self.changed.notify_all()  # streams waiting for room learn it is closed

    def _event(self, event: object) -> None:
        if isinstance(event, h2.events.ResponseReceived):
            stream = self.streams.get(event.stream_id)
            if stream is not None:
                status = dict(event.headers).get(b":status", b"")
                stream.status = int(status) if status.isdigit() else 0
        elif isinstance(event, h2.events.DataReceived):
            stream = self.streams.get(event.stream_id)
            if stream is not None:
                stream.body += event.data
            self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.StreamEnded):
            stream = self.streams.pop(event.stream_id, None)
            if stream is not None:
                _tell(stream.answered, stream.status, stream.body, None)
        elif isinstance(event, h2.events.StreamReset):
            stream = self.streams.pop(event.stream_id, None)
            if stream is not None:
                _tell(stream.answered, 0, b"", ConnectionError("stream reset"))
        elif isinstance(event, h2.events.ConnectionTerminated):
            self._fail(ConnectionError("APNs closed the connection (GOAWAY)"))

    def _fail(self, exc: BaseException) -> None:
        self.closed = True
        streams = list(self.streams.values())
        self.streams.clear()
        for stream in streams:
            _tell(stream.answered, 0, b"", exc)
        if not self.writer.is_closing():
            self.writer.close()

    async def close(self) -> None:
        if not self.closed:
            with contextlib.suppress(Exception):
                self.h2.close_connection()
                self._flush()
        self._fail(ConnectionError("closed"))


def _tell(answered: Answered, status: int, body: bytes, exc: BaseException | None) -> None:
    """Call a request's callback; its failure must not stop the reader (every later request
    on the connection would go unanswered) or the other requests' callbacks."""
    try:
        answered(status, body, exc)
    except Exception:
        log.exception("an APNs answer could not be handled")
