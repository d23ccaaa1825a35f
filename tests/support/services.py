"""Throwaway PostgreSQL clusters and Redis servers on free loopback ports.

A test that needs a service starts it here. When the binary is missing the test is
skipped with the reason, except under CI=true, where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

PG_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_serving(url: str, timeout: float = 60) -> None:
    """Until a GET of `url` gets any answer (a server started in a subprocess is up)."""
    import httpx

    deadline = time.monotonic() + timeout
    while True:
        try:
            httpx.get(url, timeout=2)
            return
        except httpx.TransportError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)


def missing(what: str) -> None:
    """Skip, or fail under CI=true, because a service binary is missing."""
    message = f"{what} is not installed (apt-get install {what.split()[0]})"
    if os.environ.get("CI") == "true":
        pytest.fail(message + "; CI must install it (.ci/run)")
    pytest.skip(message)


def _pg_tool(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for directory in PG_BIN_DIRS:
        if (directory / name).exists():
            return str(directory / name)
    return None


class PostgresCluster:
    """`initdb` + `pg_ctl start` in a temporary folder; `stop()` removes it."""

    def __init__(self) -> None:
        initdb, pg_ctl = _pg_tool("initdb"), _pg_tool("pg_ctl")
        if not initdb or not pg_ctl:
            missing("postgresql (initdb, pg_ctl)")
        self.pg_ctl = pg_ctl
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="pgtest-"))
        self.data = self.root / "data"
        self._as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            self._as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.root, "postgres")
        self._run([initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust",
                   "--encoding=UTF8", "--locale=C.UTF-8"])
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=200")
        self._run([pg_ctl, "-D", str(self.data), "-o", options, "-l",
                   str(self.root / "log"), "-w", "start"])

    def _run(self, argv: list[str]) -> None:
        subprocess.run([*self._as_user, *argv], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        argv = [*self._as_user, self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"]
        subprocess.run(argv, check=False, capture_output=True, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)


class RedisServer:
    """`redis-server` on a free port, no persistence; `stop()` ends it."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if not binary:
            missing("redis-server")
        self.port = free_port()
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
