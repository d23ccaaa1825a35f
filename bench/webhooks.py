"""Webhook deliveries: throughput of one worker, and pass update -> webhook latency.

1. Deliveries per second from one worker (`python -m jobs.worker`, real Redis) to a local
   receiver, SQLite: N deliveries are written, enqueued, and timed from the first arrival
   to the last. Target (issue 8): at least 200/s.
2. Time from `PATCH /v1/passes/<id>` (gunicorn, 2 workers, Redis, one worker) to the
   `pass.updated` webhook arriving at the receiver: p50 and p99 over sequential updates.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from bench.issue_throughput import TEMPLATE
from bench.server import BIN, ROOT, free_port
from tests.jobs.conftest import Redis
from tests.support.receiver import Receiver

DELIVERIES = 2000
UPDATES = 200
TARGET = 200.0


def _env(tmp: Path, redis: Redis, port: int) -> dict[str, str]:
    return {**os.environ, "INSTANCE_PATH": str(tmp), "RATE_LIMIT_TEST": "1000000",
            "BASE_URL": f"http://127.0.0.1:{port}", "REDIS_URL": redis.url,
            "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "LOG_LEVEL": "WARNING",
            "WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "1", "SWEEP_INTERVAL_SECONDS": "5"}


def _setup(env: dict[str, str]) -> str:
    flask = [str(BIN / "flask"), "--app", "wsgi"]
    subprocess.run([*flask, "db", "upgrade"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    out = subprocess.run([*flask, "org", "create", "--name", "Bench", "--json"], cwd=ROOT,
                         env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["keys"]["test"]


def _worker(env: dict[str, str], tmp: Path) -> subprocess.Popen[bytes]:
    log = (tmp / "worker.log").open("ab")
    return subprocess.Popen([sys.executable, "-m", "jobs.worker"], cwd=ROOT, env=env,
                            stdout=log, stderr=log, start_new_session=True)


def throughput() -> float:
    """Deliveries per second from one worker."""
    tmp, redis, receiver = Path(tempfile.mkdtemp(prefix="bench-wh-")), Redis(), Receiver()
    receiver.start()
    env = _env(tmp, redis, free_port())
    _setup(env)
    os.environ.update({k: env[k] for k in ("INSTANCE_PATH", "DATABASE_URL", "REDIS_URL")})
    from webapp import create_app
    from webapp.db.transaction import DISPATCHER, transaction
    from webapp.services.context import Context
    from webapp.services.webhooks import endpoints, events

    app = create_app({"DATABASE_URL": env["DATABASE_URL"], "REDIS_URL": redis.url,
                      "WEBHOOKS_ALLOW_PRIVATE_NETWORKS": True})
    worker = None
    try:
        with app.app_context():
            from sqlalchemy import select

            from webapp.extensions import db
            from webapp.models import Organization

            org_id = db.session.scalar(select(Organization.id))
            endpoints.create(Context(org_id, "test"), receiver.url)
            app.extensions[DISPATCHER] = None  # write everything first, enqueue in one go below
            for _ in range(DELIVERIES // 100):
                with transaction() as session:
                    for _ in range(100):
                        events.emit(session, organization_id=org_id, environment="test",
                                    type="pass.created", data={"object": {"id": "pass_x"}})
            from webapp.models import WebhookDelivery

            work = [(events.DELIVER_TASK, row_id)
                    for row_id in db.session.scalars(select(WebhookDelivery.id))]
        from jobs.queue import _rq_queue

        queue = _rq_queue(app)
        with queue.connection.pipeline() as pipe:
            for task, row_id in work:
                queue.enqueue(f"jobs.tasks.{task}", row_id, result_ttl=0, pipeline=pipe)
            pipe.execute()
        worker = _worker(env, tmp)
        receiver.wait_for(1, timeout=60)
        began = time.monotonic()
        receiver.wait_for(DELIVERIES, timeout=600)
        return (DELIVERIES - 1) / (time.monotonic() - began)
    finally:
        if worker is not None:
            os.killpg(worker.pid, 9)
        receiver.stop()
        redis.stop()


def latency() -> tuple[float, float]:
    """p50 and p99 (ms) from PATCH sent to the webhook's arrival."""
    tmp, redis, receiver = Path(tempfile.mkdtemp(prefix="bench-wh-")), Redis(), Receiver()
    arrivals: dict[str, float] = {}
    lock = threading.Lock()

    def answer(request: Any) -> tuple[int, dict[str, str], float]:
        body = json.loads(request.body)
        if body["type"] == "pass.updated":
            with lock:
                arrivals[body["data"]["changes"][0]["to"]] = time.perf_counter()
        return 200, {}, 0.0

    receiver.answer = answer
    receiver.start()
    port = free_port()
    env = _env(tmp, redis, port)
    key = _setup(env)
    server = subprocess.Popen([str(BIN / "gunicorn"), "-w", "2", "-b", f"127.0.0.1:{port}",
                               "--log-level", "warning", "wsgi:app"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = _worker(env, tmp)
    try:
        import httpx

        http = httpx.Client(base_url=f"http://127.0.0.1:{port}",
                            headers={"Authorization": f"Bearer {key}"}, timeout=30)
        for _ in range(300):
            try:
                if http.get("/v1/me").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)

        def post(path: str, body: Any, method: str = "POST") -> Any:
            response = http.request(method, path, json=body,
                                    headers={"Idempotency-Key": str(uuid.uuid4())})
            assert response.status_code in (200, 201), response.text
            return response.json()

        # Apple only: the Google step would call Google's API, which the bench cannot reach.
        definition = {**TEMPLATE["definition"], "platforms": {"apple": True, "google": False}}
        template = post("/v1/templates", {**TEMPLATE, "definition": definition})
        post("/v1/webhook-endpoints", {"url": receiver.url, "enabledEvents": ["pass.updated"]})
        item = post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}})
        sent: dict[str, float] = {}
        for n in range(UPDATES):
            level = f"L{n}"
            sent[level] = time.perf_counter()
            post(f"/v1/passes/{item['id']}", {"fieldValues": {"level": level}}, "PATCH")
            time.sleep(0.02)
        deadline = time.monotonic() + 60
        while len(arrivals) < UPDATES and time.monotonic() < deadline:
            time.sleep(0.05)
        waits = sorted((arrivals[k] - sent[k]) * 1000 for k in sent if k in arrivals)
        assert len(waits) == UPDATES, f"{len(waits)} of {UPDATES} webhooks arrived"
        cuts = statistics.quantiles(waits, n=100)
        return cuts[49], cuts[98]
    finally:
        server.terminate()
        server.wait(timeout=30)
        os.killpg(worker.pid, 9)
        receiver.stop()
        redis.stop()


def main() -> None:
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)
    rate = throughput()
    print(f"deliveries/s from one worker (SQLite, Redis, local receiver): {rate:.0f}/s; "
          f"target {TARGET:.0f}/s; ratio to target {rate / TARGET:.2f}")
    p50, p99 = latency()
    print(f"pass update -> webhook arrival (gunicorn 2 workers, Redis, 1 worker, SQLite): "
          f"p50 {p50:.1f} ms, p99 {p99:.1f} ms over {UPDATES} sequential updates")


if __name__ == "__main__":
    main()
