"""APNs pushes per second from one process over one HTTP/2 connection (issue 34).

The fake APNs (tests/support/fake_apns.py) runs in a process of its own; this process pushes
`{}` to PUSHES device tokens with the service's client (`webapp/wallets/apple/apns.py`), in
ROUNDS rounds. Printed per round: pushes per second, the CPU per push of this process (the
client and its loop thread) and of the fake's process (from /proc). The fake's ceiling is
1 / its CPU per push (one Python process, one core at most): it must be above the client's
rate for the rate to be the client's. Also printed: the floor of the `h2` state machine
alone, the CPU per request of a client `H2Connection` talking to a server one in memory
(headers and body out, the answer's headers in; no TLS, no sockets, no asyncio).

Target: at least 5,000 pushes/s, the fake's ceiling higher.

`python -m bench.apns [--pushes N] [--rounds N]`
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import h2.config
import h2.connection
import h2.events
import h2.settings
from cryptography.hazmat.primitives import serialization

from webapp.wallets.apple import http2

ROOT = Path(__file__).resolve().parent.parent
TOPIC = "pass.dev.bench.demo"
TARGET = 5000


def main(argv: list[str] | None = None) -> int:
    from webapp.wallets.apple import apns, certificates

    parser = argparse.ArgumentParser(prog="python -m bench.apns", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pushes", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv or [])
    tmp = Path(tempfile.mkdtemp(prefix="bench-apns-"))
    chain = certificates.make_demo_chain(TOPIC, "BENCH00001", "Bench Demo")
    roots = tmp / "root.pem"
    roots.write_bytes(chain.root.public_bytes(serialization.Encoding.PEM))
    fake = subprocess.Popen([sys.executable, "-m", "tests.support.fake_apns", str(roots)],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    rates = []
    try:
        base, ca_file = fake.stdout.readline().split()  # type: ignore[union-attr]
        identity = chain.identity
        client = apns.client_for(base, identity.certificate_pem(), identity.wwdr_pem(),
                                 identity.private_key_pem(), ca_file)
        tokens = [f"{i:064x}" for i in range(args.pushes)]
        client.push(tokens[:2000], TOPIC)  # warm up: the connection, the code paths
        for n in range(args.rounds):
            fake_cpu = _cpu_of(fake.pid)
            cpu, started = time.process_time(), time.perf_counter()
            results = client.push(tokens, TOPIC)
            elapsed = time.perf_counter() - started
            cpu = time.process_time() - cpu
            fake_cpu = _cpu_of(fake.pid) - fake_cpu
            assert all(r.status == 200 for r in results), results[:3]
            rate = len(tokens) / elapsed
            rates.append(rate)
            fake_us = fake_cpu / len(tokens) * 1e6
            print(f"round {n + 1}: {rate:7,.0f} pushes/s; CPU per push: client "
                  f"{cpu / len(tokens) * 1e6:5.1f} us, fake {fake_us:5.1f} us (its ceiling "
                  f"{1e6 / fake_us:7,.0f}/s, x{1e6 / fake_us / rate:.2f} the client's rate)",
                  flush=True)
        apns.reset()
    finally:
        fake.stdin.close()  # type: ignore[union-attr]
        fake.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    floor = _h2_floor()
    rate = statistics.median(rates)
    print(f"h2 state machine alone, client side: {floor:.1f} us per request "
          f"({1e6 / floor:,.0f}/s at most on one core)")
    print(f"median {rate:,.0f} pushes/s (target >= {TARGET:,}): "
          f"{'OK' if rate >= TARGET else 'MISSED'}")
    return 0 if rate >= TARGET else 1


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) a process has used, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _h2_floor(requests: int = 20_000, in_flight: int = 500, step: int = 50) -> float:
    """Client-side CPU (us) per request of h2 alone (with the client's settings), as the
    client uses it: `in_flight` streams open, the server answering `step` of them (200 and
    an apns-id) at a time and the client starting as many new ones."""
    open_streams: set[int] = set()  # the client's table, as the service's client keeps one
    client = http2.StateMachine(open_streams)
    server = h2.connection.H2Connection(h2.config.H2Configuration(
        client_side=False, validate_inbound_headers=False, validate_outbound_headers=False,
        normalize_outbound_headers=False))
    client.initiate_connection()
    server.initiate_connection()
    server.update_settings({h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: 1000})
    server.receive_data(client.data_to_send())
    client.receive_data(server.data_to_send())
    server.receive_data(client.data_to_send())
    spent, sent, ended = 0.0, 0, []
    while sent < requests:
        began = time.process_time()
        for _ in range(min(in_flight - len(ended) if not sent else step, requests - sent)):
            stream_id = client.get_next_available_stream_id()
            client.send_headers(stream_id, http2.request_headers(
                f"/3/device/{sent:064x}", "api.push.apple.com", [("apns-topic", TOPIC)], 2))
            client.send_data(stream_id, b"{}", end_stream=True)
            open_streams.add(stream_id)
            sent += 1
        out = client.data_to_send()
        spent += time.process_time() - began
        for event in server.receive_data(out):  # the server's side is not counted
            if isinstance(event, h2.events.DataReceived):
                server.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                ended.append(event.stream_id)
        for stream_id in ended[:step]:
            server.send_headers(stream_id, [(b":status", b"200"), (b"apns-id", b"0" * 36)],
                                end_stream=True)
        del ended[:step]
        answer = server.data_to_send()
        began = time.process_time()
        for event in client.receive_data(answer):
            if isinstance(event, h2.events.StreamEnded):
                open_streams.discard(event.stream_id)
        client.data_to_send()
        spent += time.process_time() - began
    return spent / requests * 1e6


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
