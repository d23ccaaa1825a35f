"""Jobs tests: a receiver, a Redis server that can be stopped and started on its port, and
a real worker process (`python -m jobs.worker`) on the test's database."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import BASE_URL, base_overrides
from tests.support.services import free_port, missing

ROOT = Path(__file__).resolve().parents[2]


class Redis:
    """`redis-server` without persistence on a fixed port: `stop()` and `start()` again."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server")
        if not self.binary:
            missing("redis-server")
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(self.binary), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def redis() -> Iterator[Redis]:
    server = Redis()
    yield server
    server.stop()


class WorkerProcess:
    """`python -m jobs.worker` in its own process group, on the test's database."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env, self.log = env, log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> WorkerProcess:
        with self.log.open("ab") as out:  # the child keeps its own copy of the descriptor
            self.process = subprocess.Popen([sys.executable, "-m", "jobs.worker"], cwd=ROOT,
                                            env=self.env, stdout=out, stderr=out,
                                            start_new_session=True)
        return self

    def kill(self) -> None:
        """SIGKILL the worker and what it started (its scheduler): no goodbye, no cleanup."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def worker_env(app: Flask, database_url: str, redis: Redis, tmp_path: Path) -> dict[str, Any]:
    """The worker's environment: same database, secrets and Redis as the test's app."""
    overrides = base_overrides(tmp_path, database_url)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CI_WORKER")}
    env.update({
        "DATABASE_URL": database_url, "REDIS_URL": redis.url, "BASE_URL": BASE_URL,
        "SECRET_KEY": overrides["SECRET_KEY"], "ENCRYPTION_KEYS": overrides["ENCRYPTION_KEYS"],
        "INSTANCE_PATH": str(tmp_path / "worker-instance"),
        "WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "1", "SWEEP_INTERVAL_SECONDS": "1",
        "SWEEP_STALE_SECONDS": "2", "JOBS_LEASE_SECONDS": "3", "LOG_LEVEL": "WARNING",
    })
    app.config.update(REDIS_URL=redis.url, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True)
    app.extensions.pop("rq_queues", None)
    return env


@pytest.fixture
def workers(worker_env: dict[str, str], tmp_path: Path) -> Iterator[list[WorkerProcess]]:
    """Start workers with `workers.append(WorkerProcess(...).start())`; all end after."""
    started: list[WorkerProcess] = []
    yield started
    for worker in started:
        worker.kill()
