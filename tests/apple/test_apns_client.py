"""The APNs client against the fake APNs, without the app: results in token order, the
server's stream limit and the client's concurrency, the timeout of a push, an answer that
cannot be read, and a batch that cannot connect."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import h2.config
import h2.connection
import hpack
import pytest

from tests.apple.conftest import DEMO_PASS_TYPE, demo_chain, demo_root_pem
from tests.support.fake_apns import FakeApns
from webapp.wallets.apple import apns, http2


class _Silent(FakeApns):
    """Takes the requests and never answers them (counts those it heard)."""

    heard = 0

    def _event(self, conn: h2.connection.H2Connection, event: Any,
               streams: dict[int, dict[str, Any]], uid: str | None) -> None:
        import h2.events

        if isinstance(event, h2.events.RequestReceived):
            self.heard += 1


class _Garbled(FakeApns):
    """Answers every request with a `:status` that is not a number."""

    def _event(self, conn: h2.connection.H2Connection, event: Any,
               streams: dict[int, dict[str, Any]], uid: str | None) -> None:
        import h2.events

        if isinstance(event, h2.events.StreamEnded):
            conn.send_headers(event.stream_id, [(b":status", b"2x0")], end_stream=True)


def _client(fake: FakeApns, concurrency: int = apns.CONCURRENCY) -> apns.ApnsClient:
    identity = demo_chain().identity
    chain = (identity.certificate_pem() + identity.wwdr_pem()).encode()
    return apns.ApnsClient(fake.base, chain, identity.private_key_pem(), fake.ca_file,
                           concurrency)


@pytest.fixture
def serve() -> Iterator[Any]:
    started: list[FakeApns] = []

    def start(kind: type[FakeApns] = FakeApns, **options: Any) -> FakeApns:
        fake = kind([demo_root_pem()], **options).start()
        started.append(fake)
        return fake

    yield start
    for fake in started:
        fake.stop()


def test_results_come_in_token_order_past_the_server_limit_and_the_concurrency(serve: Any
                                                                                ) -> None:
    fake = serve(max_streams=3)
    tokens = [f"{i:064x}" for i in range(120)]
    fake.answer(tokens[7], (410, "Unregistered"))
    fake.answer(tokens[50], (400, "BadDeviceToken"))
    client = _client(fake, concurrency=10)
    try:
        results = client.push(tokens, DEMO_PASS_TYPE)
    finally:
        client.close()
    assert [r.token for r in results] == tokens
    assert [r.status for r in results].count(200) == 118
    assert (results[7].status, results[7].reason) == (410, "Unregistered")
    assert results[7].timestamp_ms is not None
    assert (results[50].status, results[50].reason) == (400, "BadDeviceToken")
    assert len(fake.pushes) == 120 and fake.connections == 1


def test_a_push_not_answered_in_time_is_a_transport_error(serve: Any,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(apns, "REQUEST_TIMEOUT", 0.5)
    client = _client(serve(_Silent))
    try:
        results = client.push(["ab" * 32, "cd" * 32], DEMO_PASS_TYPE)
    finally:
        client.close()
    assert [(r.status, r.reason) for r in results] == [
        (apns.TRANSPORT_ERROR, "ConnectionFailed: TimeoutError")] * 2


def test_a_status_that_is_not_a_number_counts_as_no_answer(serve: Any) -> None:
    client = _client(serve(_Garbled))
    started = time.monotonic()
    try:
        [result] = client.push(["ab" * 32], DEMO_PASS_TYPE)
    finally:
        client.close()
    assert result.status == apns.TRANSPORT_ERROR
    assert time.monotonic() - started < apns.REQUEST_TIMEOUT / 3  # at once, not timed out


def test_a_batch_that_cannot_connect_fails_fast(serve: Any) -> None:
    fake = serve()
    identity = demo_chain().identity
    chain = (identity.certificate_pem() + identity.wwdr_pem()).encode()
    client = apns.ApnsClient("https://127.0.0.1:9", chain, identity.private_key_pem(),
                             fake.ca_file)  # nothing listens there
    started = time.monotonic()
    try:
        failed = client.push([f"{i:064x}" for i in range(50)], DEMO_PASS_TYPE)
    finally:
        client.close()
    assert time.monotonic() - started < 2  # one refused connection, not one per push
    assert {r.status for r in failed} == {apns.TRANSPORT_ERROR}
    assert {r.reason for r in failed} == {"ConnectionFailed: ConnectionRefusedError"}


class _Late(FakeApns):
    """Answers each request a second after it ends (one at a time)."""

    def _event(self, conn: h2.connection.H2Connection, event: Any,
               streams: dict[int, dict[str, Any]], uid: str | None) -> None:
        import h2.events

        if isinstance(event, h2.events.StreamEnded):
            time.sleep(1.0)
        super()._event(conn, event, streams, uid)


def test_an_answer_after_the_timeout_is_dropped_and_the_connection_kept(
        serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apns, "REQUEST_TIMEOUT", 0.3)
    fake = serve(_Late)
    client = _client(fake, concurrency=1)
    try:
        results = client.push(["ab" * 32, "cd" * 32, "ef" * 32], DEMO_PASS_TYPE)
        assert [(r.status, r.reason) for r in results] == [
            (apns.TRANSPORT_ERROR, "ConnectionFailed: TimeoutError")] * 3
        assert client._connection is not None and client._connection.streams == {}
        time.sleep(2.5)  # the late answers arrive, for streams the client reset
        monkeypatch.setattr(apns, "REQUEST_TIMEOUT", 10.0)
        assert [r.status for r in client.push(["12" * 32], DEMO_PASS_TYPE)] == [200]
    finally:
        client.close()
    assert fake.connections == 1


def test_a_push_that_timed_out_frees_its_place_under_the_servers_limit(
        serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apns, "REQUEST_TIMEOUT", 0.5)
    fake = serve(_Silent, max_streams=2)
    client = _client(fake)
    try:
        first = client.push(["ab" * 32, "cd" * 32], DEMO_PASS_TYPE)
        second = client.push(["ef" * 32, "12" * 32], DEMO_PASS_TYPE)
    finally:
        client.close()
    assert {(r.status, r.reason) for r in first + second} == {
        (apns.TRANSPORT_ERROR, "ConnectionFailed: TimeoutError")}
    assert fake.heard == 4  # the second batch's pushes went out: their places were free


def test_a_batch_given_up_by_its_caller_resets_its_streams(serve: Any) -> None:
    import asyncio

    client = _client(serve(_Silent))
    try:
        with pytest.raises(TimeoutError):
            apns._background().run(asyncio.wait_for(
                client.push_async(["ab" * 32, "cd" * 32], DEMO_PASS_TYPE), 0.5))
        assert client._connection is not None and client._connection.streams == {}
    finally:
        client.close()


def test_a_reset_stream_wakes_a_request_waiting_for_room(serve: Any) -> None:
    """A stream given up on frees its place under the server's limit at once: a request
    waiting for room starts then, not at the connection's next read (a silent server's
    never)."""
    import asyncio

    client = _client(serve(_Silent, max_streams=2))

    async def scenario() -> None:
        connection = await client._connected()
        ids = [connection.start(f"/3/device/{token}", [("apns-topic", DEMO_PASS_TYPE)],
                                apns.BODY, lambda *_: None) for token in ("ab" * 32, "cd" * 32)]
        waiting = asyncio.ensure_future(connection.room(len(apns.BODY), 5))
        await asyncio.sleep(0.2)
        assert not waiting.done()  # the server's two places are taken
        connection.cancel(ids[0])
        await asyncio.wait_for(waiting, 1)

    try:
        apns._background().run(scenario(), 10)
    finally:
        client.close()


class _HugeTimestamp(FakeApns):
    """Answers the token "ab" * 32 with a 410 whose timestamp no integer holds."""

    def _decide(self, request: dict[str, Any], uid: str | None) -> tuple[int, bytes]:
        if request["headers"].get(":path", "").endswith("ab" * 32):
            return 410, b'{"reason": "Unregistered", "timestamp": 1e999}'
        return super()._decide(request, uid)


def test_an_answer_with_a_timestamp_out_of_range_is_read_without_it(serve: Any) -> None:
    client = _client(serve(_HugeTimestamp))
    try:
        results = client.push(["ab" * 32, "cd" * 32], DEMO_PASS_TYPE)
    finally:
        client.close()
    assert [(r.status, r.reason, r.timestamp_ms) for r in results] == [
        (410, "Unregistered", None), (200, None, None)]


def test_an_answer_that_cannot_be_handled_stops_neither_the_reader_nor_the_others(
        serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apns, "REQUEST_TIMEOUT", 0.5)
    read = apns._result

    def broken(token: str, status: int, body: bytes) -> apns.PushResult:
        if token == "ab" * 32:
            raise RuntimeError("a bug in reading the answer")
        return read(token, status, body)

    monkeypatch.setattr(apns, "_result", broken)
    fake = serve()
    client = _client(fake)
    try:
        results = client.push(["ab" * 32, "cd" * 32], DEMO_PASS_TYPE)
        assert [(r.status, r.reason) for r in results] == [
            (apns.TRANSPORT_ERROR, "ConnectionFailed: TimeoutError"), (200, None)]
        assert [r.status for r in client.push(["ef" * 32], DEMO_PASS_TYPE)] == [200]
    finally:
        client.close()
    assert fake.connections == 1


def test_h2_does_not_walk_its_streams_for_each_push_and_drops_the_closed_ones(
        serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    walks = []
    walk = h2.connection.H2Connection._open_streams

    def counted(self: h2.connection.H2Connection, remainder: int) -> int:
        if isinstance(self, http2.StateMachine):  # (the fake's server walks in this process too)
            walks.append(len(self.streams))
        return walk(self, remainder)

    monkeypatch.setattr(h2.connection.H2Connection, "_open_streams", counted)
    client = _client(serve(), concurrency=100)
    try:
        results = client.push([f"{i:064x}" for i in range(2 * http2.SWEEP + 10)],
                              DEMO_PASS_TYPE)
    finally:
        client.close()
    assert {r.status for r in results} == {200}
    assert len(walks) == 2  # once per SWEEP new streams, not once per stream
    assert max(walks) <= http2.SWEEP + 100  # closed ones since the last walk, and in flight


def test_the_path_goes_out_as_a_plain_literal_never_indexed() -> None:
    server = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
    client = http2.StateMachine(set())
    client.initiate_connection()
    server.initiate_connection()
    server.receive_data(client.data_to_send())
    client.receive_data(server.data_to_send())
    client.data_to_send()
    path = "/3/device/" + "ab" * 32
    client.send_headers(1, http2.request_headers(path, "api.push.apple.com", [], 0),
                        end_stream=True)
    sent = client.data_to_send()
    assert path.encode() in sent  # not Huffman coded
    [request, _ended] = server.receive_data(sent)
    assert isinstance(request.headers[2], hpack.NeverIndexedHeaderTuple)
    assert all(name != b":path" for name, _ in server.decoder.header_table.dynamic_entries)
