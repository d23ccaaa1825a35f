"""The service behind gunicorn, started from the repository root as an operator would (so
gunicorn reads ./gunicorn.conf.py), on a test's database; and raw HTTP over a socket."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Served:
    """A running gunicorn: its port, and what it has written to stderr so far."""

    port: int
    log: list[str] = field(default_factory=list)


def require_gunicorn() -> Any:
    """The gunicorn module; a skip with the reason when it is missing (a failure on CI)."""
    try:
        import gunicorn
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("gunicorn is not installed (it is in requirements/dev.txt): these tests "
                    "need the real server")
    return gunicorn


@contextmanager
def serving(app: Any, database_url: str, tmp_path: Path, *options: str,
            env: dict[str, str] | None = None, workers: int = 1) -> Iterator[Served]:
    """gunicorn on a free loopback port, without Redis; `options` are more command-line
    settings (they win over gunicorn.conf.py)."""
    gunicorn = require_gunicorn()
    # From 25.1 gunicorn opens a control socket at one fixed path: not for parallel tests.
    quiet = ["--no-control-socket"] if gunicorn.version_info >= (25, 1) else []
    inherited = {name: value for name, value in os.environ.items()
                 if name not in ("REDIS_URL", "RATE_LIMIT_FILE", "PROMETHEUS_MULTIPROC_DIR")}
    environment = inherited | {
        "DATABASE_URL": database_url, "SECRET_KEY": app.config["SECRET_KEY"],
        "ENCRYPTION_KEYS": ",".join(app.config["ENCRYPTION_KEYS"]),
        "BASE_URL": app.config["BASE_URL"], "INSTANCE_PATH": str(tmp_path / "gunicorn"),
        "RATE_LIMIT_TEST": "100000", "RATE_LIMIT_LIVE": "100000", "LOG_LEVEL": "WARNING",
    } | (env or {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", "127.0.0.1:0", "--workers", str(workers),
         *quiet,
         "--log-level", "info", *options, "wsgi:app"],
        cwd=ROOT, env=environment, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    served = Served(port=0)
    try:
        deadline = time.monotonic() + 30
        while not served.port and time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                break
            served.log.append(line)
            match = re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", line)
            served.port = int(match.group(1)) if match else 0
        assert served.port, "gunicorn did not start:\n" + "".join(served.log)
        threading.Thread(target=lambda: served.log.extend(proc.stderr or ()), daemon=True
                         ).start()  # keeps the pipe empty
        _wait_for_worker(served.port)
        yield served
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def _wait_for_worker(port: int) -> None:
    """Until the worker answers (the master listens before its worker has booted)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            status, _, _ = raw_request(port, b"GET /static/holder/holder.css HTTP/1.1\r\n"
                                             b"Host: t\r\nConnection: close\r\n\r\n")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError("gunicorn's worker did not answer")


def raw_request(port: int, data: bytes, *, timeout: float = 30
                ) -> tuple[int, dict[str, str], bytes]:
    """Send `data` as it is; the status, headers (lower-case names) and body received."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        received = bytearray()
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = bytes(received).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body
