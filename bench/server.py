"""A real server for benchmarks: gunicorn with 2 workers on a free loopback port."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import gunicorn

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    from tests.support.services import free_port as port

    return port()


class Server:
    """Migrate a database, create an organization, serve with gunicorn."""

    def __init__(self, database_url: str | None = None, workers: int = 2,
                 env: dict[str, str] | None = None) -> None:
        """`env` is set last, over the benchmark's own settings (e.g. the real rate limits)."""
        self.tmp = Path(tempfile.mkdtemp(prefix="bench-"))
        self.port = free_port()
        self.env = {**os.environ, "INSTANCE_PATH": str(self.tmp), "RATE_LIMIT_TEST": "1000000",
                    "RATE_LIMIT_LIVE": "1000000", "BASE_URL": f"http://127.0.0.1:{self.port}",
                    "DATABASE_URL": database_url or f"sqlite:///{self.tmp}/bench.sqlite3",
                    "LOG_LEVEL": "WARNING"}
        self.env.pop("REDIS_URL", None)  # jobs in the web process unless `env` sets it
        self.env.update(env or {})
        flask = [str(BIN / "flask"), "--app", "wsgi"]
        subprocess.run([*flask, "db", "upgrade"], cwd=ROOT, env=self.env, check=True,
                       capture_output=True)
        out = subprocess.run([*flask, "org", "create", "--name", "Bench", "--json"], cwd=ROOT,
                             env=self.env, check=True, capture_output=True, text=True).stdout
        self.key = json.loads(out)["keys"]["test"]
        # gunicorn's and the app's log; from 25.1 gunicorn also opens a control socket at one
        # fixed path, which two servers at once would fight over.
        self.log = self.tmp / "server.log"
        quiet = ["--no-control-socket"] if gunicorn.version_info >= (25, 1) else []
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [str(BIN / "gunicorn"), "-w", str(workers), "-b", f"127.0.0.1:{self.port}",
                 "--log-level", "warning", *quiet, "wsgi:app"], cwd=ROOT, env=self.env,
                stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if self.request("GET", "/v1/me")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)

    def request(self, method: str, path: str, body: Any = None,
                idem: str | None = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Bearer {self.key}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if idem:
            headers["Idempotency-Key"] = idem
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        payload = response.read()
        conn.close()
        return response.status, payload

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        shutil.rmtree(self.tmp, ignore_errors=True)


@contextmanager
def postgres_database() -> Iterator[str]:
    """The URL of a database `bench` on a throwaway PostgreSQL cluster, stopped after."""
    import psycopg

    from tests.support.services import PostgresCluster

    cluster = PostgresCluster()
    try:
        with psycopg.connect(cluster.url().replace("+psycopg", ""), autocommit=True) as conn:
            conn.execute("CREATE DATABASE bench")
        yield cluster.url("bench")
    finally:
        cluster.stop()


# The app's settings in every in-process bench (no sweep thread: a bench's database goes away).
SETTINGS = {"RATE_LIMIT_TEST": 10**9, "LOG_LEVEL": "WARNING", "SECRET_KEY": "bench",
            "SWEEP_INTERVAL_SECONDS": 3600,
            "ENCRYPTION_KEYS": "dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktdGVzdDE="}


def new_organization(url: str, tmp: Path, revision: str = "head") -> tuple[Any, Any]:
    """The app on `url` migrated to `revision`, and a new organization in it
    (`organizations.create`'s result: the organization and its keys)."""
    from flask_migrate import upgrade

    from webapp import create_app
    from webapp.services.accounts import organizations

    app = create_app({**SETTINGS, "DATABASE_URL": url, "INSTANCE_PATH": str(tmp)})
    with app.app_context():
        upgrade(revision=revision)
        created = organizations.create("Bench", "bench@example.com", "benchmark-password")
    return app, created


def databases(names: str) -> Iterator[tuple[str, str, Path]]:
    """For each of the comma-separated `names` (`sqlite`, `postgres`): its label, the URL of a
    new empty database and a scratch folder, both thrown away after."""
    for name in names.split(","):
        tmp = Path(tempfile.mkdtemp(prefix=f"bench-{name}-"))
        try:
            if name == "sqlite":
                yield name, f"sqlite:///{tmp / 'bench.sqlite3'}", tmp
            else:
                with postgres_database() as url:
                    yield name, url, tmp
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def load_rows(url: str, table: str, columns: tuple[str, ...],
              rows: Iterable[tuple[Any, ...]]) -> None:
    """Insert rows straight, past the app (SQLite `executemany`, PostgreSQL COPY and then
    VACUUM ANALYZE)."""
    names = ", ".join(f'"{column}"' for column in columns)  # (`index` is a keyword)
    if url.startswith("sqlite"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            conn.executemany(f"INSERT INTO {table} ({names}) VALUES "
                             f"({', '.join('?' * len(columns))})", rows)
        return
    import psycopg

    dsn = url.replace("+psycopg", "")
    with psycopg.connect(dsn) as conn, conn.cursor() as cur:
        with cur.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        conn.commit()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"VACUUM ANALYZE {table}")
