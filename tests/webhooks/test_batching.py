"""One job sends the due deliveries of its endpoint (a batch) over one connection: never
one that another worker holds, stopping at a failure, and the other jobs do nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select, update

from tests.conftest import Api
from tests.support.receiver import Receiver
from tests.webhooks.conftest import endpoint, issue
from webapp import clock
from webapp.db.transaction import DISPATCHER, transaction


@pytest.fixture
def held_jobs(app: Flask) -> Iterator[list[tuple[str, str]]]:
    """Enqueued jobs are kept here instead of running, so deliveries pile up pending."""
    from jobs import queue

    kept: list[tuple[str, str]] = []
    app.extensions[DISPATCHER] = lambda task, *row_ids: kept.append((task, *row_ids))
    yield kept
    app.extensions[DISPATCHER] = queue.enqueue


def _rows(app: Flask) -> list[Any]:
    from webapp.extensions import db
    from webapp.models import WebhookDelivery

    with app.app_context():
        rows = list(db.session.scalars(select(WebhookDelivery)
                                       .order_by(WebhookDelivery.created_at,
                                                 WebhookDelivery.id)))
        db.session.expunge_all()
        return rows


def _pending(app: Flask, api: Api, receiver: Receiver, count: int) -> list[str]:
    endpoint(api, receiver.url, ["pass.created"])
    for n in range(count):
        issue(api, f"Member {n}", google=False)
    rows = _rows(app)
    assert len(rows) == count and {r.status for r in rows} == {"pending"}
    return [r.id for r in rows]


def _deliver(app: Flask, delivery_id: str) -> Any:
    from webapp.services.webhooks import delivery

    with app.app_context():
        return delivery.deliver(delivery_id)


def test_one_job_sends_the_endpoints_due_deliveries_and_the_others_do_nothing(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list) -> None:
    ids = _pending(app, api, receiver, 4)
    assert _deliver(app, ids[2]).ok
    requests = receiver.wait_for(4)
    rows = {r.id: r for r in _rows(app)}
    assert requests[0].headers["webhook-id"] == rows[ids[2]].event_id  # its own first
    assert {r.headers["webhook-id"] for r in requests} == {r.event_id for r in rows.values()}
    assert all(r.status == "succeeded" and r.attempts == 1 and r.locked_until is None
               for r in rows.values())
    for delivery_id in ids:
        assert _deliver(app, delivery_id) is None
    assert len(receiver.requests) == 4


def test_a_batch_never_sends_a_delivery_another_worker_holds(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list) -> None:
    from webapp.models import WebhookDelivery

    ids = _pending(app, api, receiver, 3)
    until = clock.now() + timedelta(seconds=60)
    with app.app_context(), transaction() as session:
        session.execute(update(WebhookDelivery).where(WebhookDelivery.id == ids[1])
                        .values(locked_until=until))
    assert _deliver(app, ids[0]).ok
    rows = {r.id: r for r in _rows(app)}
    assert len(receiver.wait_for(2)) == 2
    assert rows[ids[1]].event_id not in {r.headers["webhook-id"] for r in receiver.requests}
    assert rows[ids[1]].status == "pending" and rows[ids[1]].attempts == 0
    assert rows[ids[1]].locked_until == until  # the other worker's hold is untouched
    assert _deliver(app, ids[1]) is None  # held: its own job waits for the lease too


def test_a_failure_stops_the_batch_and_hands_the_rest_back_to_their_jobs(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list) -> None:
    receiver.answer = lambda r: (500, {}, 0.0)
    ids = _pending(app, api, receiver, 3)
    held_jobs.clear()
    outcome = _deliver(app, ids[0])
    assert outcome is not None and outcome.error_code == "http_status"
    assert len(receiver.wait_for(1)) == 1
    rows = {r.id: r for r in _rows(app)}
    assert rows[ids[0]].attempts == 1 and rows[ids[0]].next_attempt_at is not None
    for other in ids[1:]:
        assert rows[other].attempts == 0 and rows[other].locked_until is None
    assert sorted(held_jobs) == sorted(("deliver_webhook", other) for other in ids[1:])


def test_a_batch_stays_well_inside_its_lease(app: Flask, api: Api, receiver: Receiver,
                                             held_jobs: list) -> None:
    ids = _pending(app, api, receiver, 3)
    held_jobs.clear()
    app.config.update(JOBS_LEASE_SECONDS=3, WEBHOOK_TIMEOUT_SECONDS=2)  # room for one
    assert _deliver(app, ids[0]).ok
    assert len(receiver.wait_for(1)) == 1
    assert sorted(held_jobs) == sorted(("deliver_webhook", other) for other in ids[1:])
    assert all(r.locked_until is None for r in _rows(app))


def test_a_batch_is_one_endpoints_and_at_most_batch_long(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.services.webhooks import delivery

    monkeypatch.setattr(delivery, "BATCH", 2)
    other = Receiver().start()
    try:
        mine = endpoint(api, receiver.url, ["pass.created"])
        endpoint(api, other.url, ["pass.created"])
        for n in range(3):
            issue(api, f"Member {n}", google=False)
        ids = [r.id for r in _rows(app) if r.endpoint_id == mine["id"]]
        assert len(ids) == 3 and len(_rows(app)) == 6
        assert _deliver(app, ids[0]).ok
        receiver.wait_for(2)
        time.sleep(0.2)  # a third request, if one were sent, would be recorded by now
        assert len(receiver.requests) == 2 and other.requests == []
        assert [r.status for r in _rows(app) if r.endpoint_id == mine["id"]].count(
            "succeeded") == 2
    finally:
        other.stop()
