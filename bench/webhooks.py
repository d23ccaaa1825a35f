"""Webhook deliveries: throughput of one worker, and pass update -> webhook latency.

1. Deliveries per second from one worker (`python -m jobs.worker`, real Redis) to a local
   receiver, SQLite: N deliveries are written, their endpoint's job enqueued once (as
   `events.emit` queues it: a job per endpoint, the queue's mark keeps one waiting), and
   timed from the first arrival to the last. Target (issue 34): at least 500/s. The
   receiver's own ceiling is measured in the same run: a client process with 4 threads,
   each on its own kept-alive connection, POSTing bodies of the same size.
   `python -m bench.webhooks --no-latency` measures only this.
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
TARGET = 500.0
# The receiver's ceiling: 4 threads in another process, a kept-alive connection each.
_HAMMER = """
import sys, threading, time, httpx
url, count = sys.argv[1], int(sys.argv[2])
body = b'{"type":"pass.created","data":{"object":{"id":"pass_x"}}}' * 4
def run():
    with httpx.Client() as client:
        for _ in range(count // 4):
            client.post(url, content=body, headers={"Content-Type": "application/json"})
threads = [threading.Thread(target=run) for _ in range(4)]
started = time.monotonic()
for t in threads: t.start()
for t in threads: t.join()
print(count / (time.monotonic() - started))
"""


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
            from sqlalchemy import func, select

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

            assert db.session.scalar(select(func.count(WebhookDelivery.id))) == DELIVERIES
            endpoint_id = db.session.scalar(select(WebhookDelivery.endpoint_id))
        from jobs.queue import _rq_queue

        _rq_queue(app).enqueue(f"jobs.tasks.{events.DELIVER_TASK}", endpoint_id, result_ttl=0)
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


def receiver_ceiling() -> float:
    """Requests per second the local receiver answers, from a client in another process."""
    receiver = Receiver().start()
    try:
        out = subprocess.run([sys.executable, "-c", _HAMMER, receiver.url, str(DELIVERIES * 2)],
                             check=True, capture_output=True, text=True).stdout
        return float(out)
    finally:
        receiver.stop()


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


def main(argv: list[str] | None = None) -> None:
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)
    ceiling = receiver_ceiling()
    rate = throughput()
    after = receiver_ceiling()
    print(f"the receiver alone (4 kept-alive connections from another process): "
          f"{ceiling:.0f} req/s before, {after:.0f} after")
    print(f"deliveries/s from one worker (SQLite, Redis, local receiver): {rate:.0f}/s; "
          f"target {TARGET:.0f}/s: {'OK' if rate >= TARGET else 'MISSED'}; "
          f"{rate / ((ceiling + after) / 2):.2f} of the receiver's ceiling")
    if "--no-latency" in (argv or []):
        return
    p50, p99 = latency()
    print(f"pass update -> webhook arrival (gunicorn 2 workers, Redis, 1 worker, SQLite): "
          f"p50 {p50:.1f} ms, p99 {p99:.1f} ms over {UPDATES} sequential updates")


if __name__ == "__main__":
    main(sys.argv[1:])
