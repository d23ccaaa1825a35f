"""Two machines on one: two app nodes (gunicorn, two workers each, each with an instance folder
of its own), one PostgreSQL, one Redis, and an RQ worker per node, every process started from
the repository root as an operator would, in production mode.

`Cluster.url(path)` names the next node in turn (round robin, as a balancer would); one
`httpx.Client` talks to both, so a dashboard session signed in on one is sent to the other.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import httpx

from tests.jobs.conftest import Redis, WorkerProcess
from tests.support.gunicorn import ROOT, require_gunicorn
from tests.support.services import PostgresCluster

SECRET_KEY = "cluster-secret-key-cluster-secret-key-0123"
METRICS_TOKEN = "cluster-metrics-token"
ENCRYPTION_KEYS = "Y2x1c3Rlci1rZXktY2x1c3Rlci1rZXktY2x1c3Rlcjk="


@dataclass
class Node:
    """One app node: gunicorn on a loopback port, with its own instance folder."""

    name: str
    env: dict[str, str]
    process: subprocess.Popen[str] | None = None
    port: int = 0
    log: list[str] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Node:
        gunicorn = require_gunicorn()
        quiet = ["--no-control-socket"] if gunicorn.version_info >= (25, 1) else []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", "127.0.0.1:0", "--workers", "2",
             *quiet, "--log-level", "info", "wsgi:app"],
            cwd=ROOT, env=self.env, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        deadline = time.monotonic() + 60
        while not self.port and time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line and self.process.poll() is not None:
                break
            self.log.append(line)
            match = re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", line)
            self.port = int(match.group(1)) if match else 0
        assert self.port, f"{self.name} did not start:\n" + "".join(self.log)
        threading.Thread(target=lambda: self.log.extend(self.process.stderr or ()),  # type: ignore[union-attr]
                         daemon=True).start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/static/holder/holder.css", timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"{self.name}'s workers did not answer")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            if self.process.stderr is not None:
                self.process.stderr.close()
            self.process = None


@dataclass
class Cluster:
    """Two nodes, their workers, one PostgreSQL and one Redis."""

    root: Path
    postgres: PostgresCluster
    redis: Redis
    database_url: str
    env: dict[str, str]
    nodes: list[Node] = field(default_factory=list)
    workers: list[WorkerProcess] = field(default_factory=list)
    _turn: Iterator[int] = field(default_factory=count)

    def node_env(self, name: str) -> dict[str, str]:
        return {**self.env, "INSTANCE_PATH": str(self.root / name / "instance")}

    def url(self, path: str) -> str:
        """`path` on the next node in turn."""
        return self.nodes[next(self._turn) % len(self.nodes)].base + path

    def start_worker(self, name: str) -> WorkerProcess:
        worker = WorkerProcess(self.node_env(name), self.root / f"{name}-worker.log").start()
        self.workers.append(worker)
        return worker

    def api(self, http: httpx.Client, key: str, method: str, path: str, body: Any = None,
            idem: str | None = None) -> httpx.Response:
        """A `/v1` request with `key` on the next node (a fresh Idempotency-Key on writes)."""
        headers = {"Authorization": f"Bearer {key}"}
        if method != "GET":
            headers["Idempotency-Key"] = idem or str(uuid.uuid4())
        return http.request(method, self.url(f"/v1{path}"), json=body, headers=headers)

    def template(self, http: httpx.Client, key: str) -> str:
        """A new Apple-only template (no Google object to write); its ID."""
        from tests.api.factories import template_body

        made = self.api(http, key, "POST", "/templates",
                        template_body(platforms={"apple": True, "google": False}))
        assert made.status_code == 201, made.text
        return str(made.json()["id"])

    def bulk_issue(self, http: httpx.Client, key: str, template: str, count: int) -> str:
        """A bulk job issuing `count` passes; its ID."""
        made = self.api(http, key, "POST", "/bulk-jobs", {
            "operation": "issue", "templateId": template,
            "items": [{"fieldValues": {"member": f"M{n}"}} for n in range(count)]})
        assert made.status_code == 202, made.text
        return str(made.json()["id"])

    def read(self, http: httpx.Client, key: str, path: str) -> dict[str, Any]:
        """A `/v1` GET's answer, waiting out the key's rate limit as a client should (a
        test polling a job asks more often than the test environment's 25 a second)."""
        for _ in range(50):
            response = self.api(http, key, "GET", path)
            if response.status_code != 429:
                assert response.status_code == 200, response.text
                return dict(response.json())
            time.sleep(float(response.headers.get("Retry-After", "1")))
        raise AssertionError(f"{path}: still limited")

    def job(self, http: httpx.Client, key: str, job_id: str) -> dict[str, Any]:
        return self.read(http, key, f"/bulk-jobs/{job_id}")

    def deliveries(self) -> list[tuple[str, str, int]]:
        """Every webhook delivery: ("<event ID>:<endpoint ID>", status, attempts)."""
        import psycopg

        with psycopg.connect(self.database_url.replace("+psycopg", "")) as conn:
            return [tuple(row) for row in conn.execute(  # type: ignore[misc]
                "SELECT event_id || ':' || endpoint_id, status, attempts "
                "FROM webhook_deliveries").fetchall()]

    def metrics(self) -> Counter[tuple[str, frozenset[tuple[str, str]]]]:
        """Every sample of both nodes' `GET /metrics`, added up: (name, labels) -> value."""
        from prometheus_client.parser import text_string_to_metric_families

        total: Counter[tuple[str, frozenset[tuple[str, str]]]] = Counter()
        for node in self.nodes:
            answer = httpx.get(f"{node.base}/metrics", timeout=10,
                               headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
            assert answer.status_code == 200, answer.text
            for family in text_string_to_metric_families(answer.text):
                for sample in family.samples:
                    total[(sample.name, frozenset(sample.labels.items()))] += sample.value
        return total

    def flask(self, *args: str) -> str:
        """A `flask --app wsgi` command on node A's settings; its standard output."""
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], cwd=ROOT,
                              env=self.node_env("node-a"), capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout


@contextmanager
def cluster(root: Path, workers: int = 2, **settings: str) -> Iterator[Cluster]:
    """Start PostgreSQL, Redis, migrate, two nodes and `workers` workers (one on each node
    in turn); stop them after."""
    postgres = PostgresCluster()
    redis: Redis | None = None
    made: Cluster | None = None
    try:
        import psycopg

        with psycopg.connect(postgres.url().replace("+psycopg", ""), autocommit=True) as conn:
            conn.execute("CREATE DATABASE app")
        redis = Redis()
        inherited = {k: v for k, v in os.environ.items()
                     if k not in ("REDIS_URL", "DATABASE_URL", "RATE_LIMIT_FILE",
                                  "PROMETHEUS_MULTIPROC_DIR")}  # each node has its own
        env = inherited | {
            "APP_ENV": "production", "DATABASE_URL": postgres.url("app"),
            "REDIS_URL": redis.url, "SECRET_KEY": SECRET_KEY,
            "ENCRYPTION_KEYS": ENCRYPTION_KEYS, "BASE_URL": "http://passes.cluster.test",
            "WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "1", "LOG_LEVEL": "WARNING",
            "SWEEP_INTERVAL_SECONDS": "1", "SWEEP_STALE_SECONDS": "3",
            "JOBS_LEASE_SECONDS": "10", "METRICS_TOKEN": METRICS_TOKEN,
        } | settings
        made = Cluster(root, postgres, redis, postgres.url("app"), env)
        made.flask("db", "upgrade")
        for name in ("node-a", "node-b"):
            made.nodes.append(Node(name, made.node_env(name)).start())
        for n in range(workers):
            made.start_worker(made.nodes[n % 2].name)
        yield made
    finally:
        if made is not None:
            for worker in made.workers:
                worker.kill()
            for node in made.nodes:
                node.stop()
        if redis is not None:
            redis.stop()
        postgres.stop()


def organization(made: Cluster, name: str = "Cluster Co") -> dict[str, Any]:
    """An organization made with the CLI: its keys and the owner's login."""
    import json

    out = json.loads(made.flask("org", "create", "--name", name, "--json"))
    return {"id": out["organizationId"], "keys": out["keys"], **out["dashboard"]}


def wait(predicate: Callable[[], bool], timeout: float = 120, every: float = 0.2) -> None:
    """Until `predicate()` holds (an AssertionError after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(every)
