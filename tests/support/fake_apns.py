"""A local fake APNs for tests: HTTP/2 over TLS on a loopback port, requiring a client
certificate that chains to one of the roots it is given, built on the `h2` state machine.

It answers `POST /3/device/<token>` like APNs: 200 with an `apns-id`; 400 `MissingTopic`
or `TopicDisallowed` (the topic must be the client certificate's UID, the pass type
identifier); 404 `BadPath`; 405 `MethodNotAllowed`. Tests script other answers per token
(`answers[token] = [(410, "Unregistered"), ...]`, the last one repeats) or for everyone
(`reject_all = (403, "BadCertificate")`). Every push is recorded in `pushes`.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
import os
import socket
import ssl
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h2.settings
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from webapp.wallets.apple import http2


@dataclass(frozen=True)
class Push:
    """One request the fake received."""

    method: str
    path: str
    token: str
    topic: str | None
    body: bytes
    headers: dict[str, str]
    client_uid: str | None
    status: int


@dataclass
class FakeApns:
    """Start with `start()`; `base` is its URL and `ca_file` the CA clients must trust."""

    client_roots: list[bytes]
    max_streams: int = 1000
    answers: dict[str, list[tuple[int, str | None]]] = field(default_factory=dict)
    reject_all: tuple[int, str] | None = None
    pushes: list[Push] = field(default_factory=list)
    connections: int = 0

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._folder = tempfile.mkdtemp(prefix="fake-apns-")
        self.ca_file, cert_file, key_file = _server_identity(self._folder)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert_file, key_file)
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(cadata="\n".join(r.decode() for r in self.client_roots))
        context.set_alpn_protocols(["h2"])
        self._context = context
        self._sock = socket.socket()
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self.base = f"https://127.0.0.1:{self.port}"
        self._running = False

    def start(self) -> FakeApns:
        self._sock.listen(64)
        self._running = True
        threading.Thread(target=self._accept, daemon=True, name="fake-apns").start()
        return self

    def stop(self) -> None:
        self._running = False
        self._sock.close()

    def reset(self) -> None:
        with self._lock:
            self.answers.clear()
            self.pushes.clear()
            self.reject_all = None

    def answer(self, token: str, *answers: tuple[int, str | None]) -> None:
        """Script this token's answers (the last one repeats)."""
        with self._lock:
            self.answers[token] = list(answers)

    def pushes_to(self, token: str) -> list[Push]:
        with self._lock:
            return [p for p in self.pushes if p.token == token]

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Push]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.pushes) >= count:
                    return list(self.pushes)
            time.sleep(0.01)
        raise AssertionError(f"expected {count} pushes, got {len(self.pushes)}")

    # ---- serving ---------------------------------------------------------------------------

    def _accept(self) -> None:
        while self._running:
            try:
                raw, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(raw,), daemon=True).start()

    def _serve(self, raw: socket.socket) -> None:
        try:
            raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            raw.settimeout(10)
            tls = self._context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            raw.close()  # no or untrusted client certificate: refused at TLS
            return
        tls.settimeout(None)
        with self._lock:
            self.connections += 1
        uid = _peer_uid(tls.getpeercert())
        streams: dict[int, dict[str, Any]] = {}
        conn = http2.CountedConnection(h2.config.H2Configuration(
            client_side=False, validate_inbound_headers=False,
            validate_outbound_headers=False, normalize_outbound_headers=False), streams)
        conn.initiate_connection()
        conn.update_settings({h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS:
                              self.max_streams})
        tls.sendall(conn.data_to_send())
        try:
            while True:
                data = tls.recv(65536)
                if not data:
                    break
                for event in conn.receive_data(data):
                    self._event(conn, event, streams, uid)
                out = conn.data_to_send()
                if out:
                    tls.sendall(out)
        except (OSError, ssl.SSLError, h2.exceptions.ProtocolError):
            pass
        finally:
            tls.close()

    def _event(self, conn: h2.connection.H2Connection, event: Any,
               streams: dict[int, dict[str, Any]], uid: str | None) -> None:
        if isinstance(event, h2.events.RequestReceived):
            streams[event.stream_id] = {"headers": {name.decode(): value.decode() for
                                                    name, value in event.headers}, "body": b""}
        elif isinstance(event, h2.events.DataReceived):
            streams[event.stream_id]["body"] += event.data
            conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.StreamReset):
            streams.pop(event.stream_id, None)
        elif isinstance(event, h2.events.StreamEnded):
            request = streams.pop(event.stream_id)
            status, body = self._decide(request, uid)
            conn.send_headers(event.stream_id, [
                (b":status", str(status).encode()), (b"apns-id", str(uuid.uuid4()).encode()),
                (b"content-length", str(len(body)).encode())], end_stream=not body)
            if body:
                conn.send_data(event.stream_id, body, end_stream=True)

    def _decide(self, request: dict[str, Any], uid: str | None) -> tuple[int, bytes]:
        headers = request["headers"]
        method, path = headers.get(":method", ""), headers.get(":path", "")
        token = path.rsplit("/", 1)[-1]
        topic = headers.get("apns-topic")
        status, reason = 200, None
        with self._lock:
            if method != "POST":
                status, reason = 405, "MethodNotAllowed"
            elif not path.startswith("/3/device/") or not token:
                status, reason = 404, "BadPath"
            elif self.reject_all is not None:
                status, reason = self.reject_all
            elif not topic:
                status, reason = 400, "MissingTopic"
            elif topic != uid:
                status, reason = 400, "TopicDisallowed"
            elif token in self.answers:
                queue = self.answers[token]
                status, reason = queue.pop(0) if len(queue) > 1 else queue[0]
            self.pushes.append(Push(method, path, token, topic, request["body"],
                                    {k: v for k, v in headers.items()
                                     if not k.startswith(":")}, uid, status))
        if status == 200:
            return 200, b""
        payload: dict[str, Any] = {"reason": reason}
        if status == 410:
            payload["timestamp"] = int(time.time() * 1000)
        return status, json.dumps(payload).encode()


def _peer_uid(cert: dict[str, Any] | None) -> str | None:
    for rdn in (cert or {}).get("subject", ()):
        for key, value in rdn:
            if key in ("userId", "UID"):
                return value
    return None


def _server_identity(folder: str) -> tuple[str, str, str]:
    """A CA and a server certificate for 127.0.0.1/localhost; returns the file paths."""
    now = dt.datetime.now(dt.UTC)
    ca_key, key = rsa.generate_private_key(65537, 2048), rsa.generate_private_key(65537, 2048)
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Fake APNs CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=30))
          .add_extension(x509.BasicConstraints(True, None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    server = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
              .issuer_name(ca_name).public_key(key.public_key())
              .serial_number(x509.random_serial_number())
              .not_valid_before(now - dt.timedelta(days=1))
              .not_valid_after(now + dt.timedelta(days=30))
              .add_extension(x509.SubjectAlternativeName([
                  x509.DNSName("localhost"),
                  x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
              .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                             critical=False)
              .sign(ca_key, hashes.SHA256()))
    paths = [os.path.join(folder, n) for n in ("ca.pem", "server.pem", "server.key")]
    with open(paths[0], "wb") as fh:
        fh.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths[1], "wb") as fh:
        fh.write(server.public_bytes(serialization.Encoding.PEM))
    with open(paths[2], "wb") as fh:
        fh.write(key.private_bytes(serialization.Encoding.PEM,
                                   serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption()))
    return paths[0], paths[1], paths[2]


def main() -> None:
    """`python -m tests.support.fake_apns ROOTS.pem`: serve until stdin closes; prints the
    address and the CA file on its first line (benchmarks run it in a process of its own)."""
    import sys

    with open(sys.argv[1], "rb") as fh:
        roots = [fh.read()]
    fake = FakeApns(roots, max_streams=int(sys.argv[2]) if len(sys.argv) > 2 else 1000).start()
    print(fake.base, fake.ca_file, flush=True)
    sys.stdin.read()
    fake.stop()


if __name__ == "__main__":
    main()
