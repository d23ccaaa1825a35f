"""Faults with a real Redis server and real worker processes: nothing is lost.

- Redis stops while passes are updated: the API keeps answering 200, and every delivery
  completes once Redis is back (its queue empty: the sweep finds the pending rows).
- The worker is killed in the middle of a job: after a new worker starts, the work is done,
  once (the delivery succeeds with one recorded attempt and is not sent again).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from flask import Flask

from tests.conftest import Api
from tests.jobs.conftest import Redis, WorkerProcess
from tests.support.receiver import Receiver
from tests.webhooks.conftest import endpoint, issue

pytestmark = pytest.mark.slow


def _deliveries(app: Flask) -> list[Any]:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import WebhookDelivery

    with app.app_context():
        rows = db.session.scalars(select(WebhookDelivery).order_by(WebhookDelivery.id)).all()
        return [(d.id, d.event_type, d.status, len(d.attempt_log)) for d in rows]


def _wait(predicate, timeout: float = 90.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.1)


def test_redis_down_while_passes_are_updated(app: Flask, api: Api, redis: Redis,
                                             receiver: Receiver, worker_env: dict,
                                             workers: list, tmp_path) -> None:  # type: ignore[no-untyped-def]
    workers.append(WorkerProcess(worker_env, tmp_path / "worker.log").start())
    endpoint(api, receiver.url, ["pass.created", "pass.updated"])
    created = issue(api, google=False)
    receiver.wait_for(1, timeout=30)  # the worker is up and delivering
    _wait(lambda: [d[2] for d in _deliveries(app)] == ["succeeded"])
    time.sleep(0.5)  # its job has ended (a running job would send what comes meanwhile)

    redis.stop()
    started = time.monotonic()
    for n in range(5):
        response = api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": str(n)}})
        assert response.status_code == 200, response.get_json()
    assert time.monotonic() - started < 20
    time.sleep(1.5)
    assert len(receiver.requests) == 1  # nothing could be delivered meanwhile

    redis.start()  # an empty Redis: the jobs enqueued before it stopped are gone too
    receiver.wait_for(6, timeout=60)
    _wait(lambda: all(d[2] == "succeeded" for d in _deliveries(app)))
    types = [json.loads(r.body)["type"] for r in receiver.requests]
    assert types.count("pass.updated") == 5
    levels = sorted(json.loads(r.body)["data"]["changes"][0]["to"] for r in receiver.requests
                    if json.loads(r.body)["type"] == "pass.updated")
    assert levels == ["0", "1", "2", "3", "4"]
    assert {d[3] for d in _deliveries(app)} == {1}  # each delivered once
    _wait(lambda: _update_states(app) == ["done"] * 5)  # the wallet deliveries finished too


def _update_states(app: Flask) -> list[str]:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import PassUpdate

    with app.app_context():
        return list(db.session.scalars(select(PassUpdate.delivery_state)))


def test_a_worker_killed_mid_job_is_replaced_and_the_work_done_once(
        app: Flask, api: Api, redis: Redis, receiver: Receiver, worker_env: dict,
        workers: list, tmp_path) -> None:  # type: ignore[no-untyped-def]
    arrived, release = threading.Event(), threading.Event()

    def answer(request):  # type: ignore[no-untyped-def]
        if not arrived.is_set():
            arrived.set()
            release.wait(30)  # hold the first request until the worker is dead
        return 200, {}, 0.0

    receiver.answer = answer
    first = WorkerProcess(worker_env, tmp_path / "first.log").start()
    workers.append(first)
    endpoint(api, receiver.url, ["pass.created"])
    issue(api, google=False)
    assert arrived.wait(30), "the worker never started the job"
    first.kill()  # in the middle of the job: the POST is out, no answer recorded
    release.set()
    [(delivery_id, _, status, attempts)] = _deliveries(app)
    assert status == "pending" and attempts == 0

    workers.append(WorkerProcess(worker_env, tmp_path / "second.log").start())
    _wait(lambda: _deliveries(app)[0][2] == "succeeded", timeout=60)
    second = receiver.wait_for(2)
    assert second[0].headers["webhook-id"] == second[1].headers["webhook-id"]
    time.sleep(4)  # several sweeps and a lease later: nothing is sent again
    assert len(receiver.requests) == 2
    assert _deliveries(app) == [(delivery_id, "pass.created", "succeeded", 1)]
