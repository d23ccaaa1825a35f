"""One job per endpoint sends its due deliveries, a batch at a time, over one connection:
never one another worker holds, resting the endpoint at a failure, giving the other
endpoints a turn, and a second job finds nothing to do."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select, update

from tests.conftest import Api
from tests.support.receiver import Receiver
from tests.webhooks.conftest import Clock, endpoint, issue
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


def _pending(app: Flask, api: Api, receiver: Receiver, count: int) -> tuple[str, list[str]]:
    """An endpoint and `count` pending deliveries to it."""
    hook = endpoint(api, receiver.url, ["pass.created"])
    for n in range(count):
        issue(api, f"Member {n}", google=False)
    rows = _rows(app)
    assert len(rows) == count and {r.status for r in rows} == {"pending"}
    return hook["id"], [r.id for r in rows]


def _deliver(app: Flask, endpoint_id: str) -> int:
    from webapp.services.webhooks import delivery

    with app.app_context():
        return delivery.deliver_endpoint(endpoint_id)


def _endpoint(app: Flask, endpoint_id: str) -> Any:
    from webapp.extensions import db
    from webapp.models import WebhookEndpoint

    with app.app_context():
        row = db.session.get(WebhookEndpoint, endpoint_id)
        db.session.expunge_all()
        return row


def test_the_events_of_one_endpoint_queue_one_job(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list) -> None:
    endpoint_id, _ = _pending(app, api, receiver, 3)
    assert [job for job in held_jobs if job[0] == "deliver_webhooks"] == \
        [("deliver_webhooks", endpoint_id)] * 3  # one per commit; the queue keeps one


def test_one_job_sends_the_endpoints_due_deliveries_and_a_second_does_nothing(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list) -> None:
    endpoint_id, ids = _pending(app, api, receiver, 4)
    assert _deliver(app, endpoint_id) == 4
    requests = receiver.wait_for(4)
    rows = {r.id: r for r in _rows(app)}
    # The first alone, the others in flight together (the spec: at-least-once, unordered).
    assert requests[0].headers["webhook-id"] == rows[ids[0]].event_id
    assert sorted(r.headers["webhook-id"] for r in requests) == \
        sorted(rows[i].event_id for i in ids)
    assert all(r.status == "succeeded" and r.attempts == 1 and r.locked_until is None
               for r in rows.values())
    assert _deliver(app, endpoint_id) == 0
    assert len(receiver.requests) == 4
    assert _deliver(app, "we_unknown") == 0 and _deliver(app, ids[0]) == 0  # not endpoints


def test_a_job_never_sends_a_delivery_another_worker_holds(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list) -> None:
    from webapp.models import WebhookDelivery

    endpoint_id, ids = _pending(app, api, receiver, 3)
    until = clock.now() + timedelta(seconds=60)
    with app.app_context(), transaction() as session:
        session.execute(update(WebhookDelivery).where(WebhookDelivery.id == ids[1])
                        .values(locked_until=until))
    assert _deliver(app, endpoint_id) == 2
    rows = {r.id: r for r in _rows(app)}
    assert len(receiver.wait_for(2)) == 2
    assert rows[ids[1]].event_id not in {r.headers["webhook-id"] for r in receiver.requests}
    assert rows[ids[1]].status == "pending" and rows[ids[1]].attempts == 0
    assert rows[ids[1]].locked_until == until  # the other worker's hold is untouched


def test_a_failure_rests_the_endpoint_until_the_failed_deliverys_next_attempt(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list, frozen: Clock) -> None:
    frozen.now = frozen.now.replace(microsecond=0)  # as stored: milliseconds
    receiver.answer = lambda r: (500, {}, 0.0)
    endpoint_id, ids = _pending(app, api, receiver, 3)
    held_jobs.clear()
    assert _deliver(app, endpoint_id) == 1
    assert len(receiver.wait_for(1)) == 1
    rows = {r.id: r for r in _rows(app)}
    retry_at = frozen.now + timedelta(seconds=5)  # decisions.md's first retry
    assert rows[ids[0]].attempts == 1 and rows[ids[0]].next_attempt_at == retry_at
    for other in ids[1:]:  # never tried: they wait for the endpoint's next try
        assert rows[other].attempts == 0 and rows[other].locked_until is None
        assert rows[other].next_attempt_at == retry_at
    assert _endpoint(app, endpoint_id).resting_until == retry_at
    assert _deliver(app, endpoint_id) == 0 and len(receiver.requests) == 1
    issue(api, "Late", google=False)  # an event while it rests: no job, no attempt
    late = _rows(app)[-1]
    assert late.next_attempt_at == retry_at and held_jobs == []

    receiver.answer = lambda r: (200, {}, 0.0)
    frozen.advance(seconds=5)
    assert _deliver(app, endpoint_id) == 4
    assert {r.status for r in _rows(app)} == {"succeeded"}
    assert _endpoint(app, endpoint_id).resting_until is None


def test_a_batch_stays_well_inside_its_lease(app: Flask, api: Api, receiver: Receiver,
                                             held_jobs: list) -> None:
    endpoint_id, _ = _pending(app, api, receiver, 3)
    app.config.update(JOBS_LEASE_SECONDS=3, WEBHOOK_TIMEOUT_SECONDS=2)  # room for one
    assert _deliver(app, endpoint_id) == 3  # one per claim, the rest released between
    assert len(receiver.wait_for(3)) == 3
    assert all(r.status == "succeeded" and r.locked_until is None for r in _rows(app))


def test_a_job_sends_its_own_endpoints_deliveries_a_batch_at_a_time(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.services.webhooks import delivery

    monkeypatch.setattr(delivery, "BATCH", 2)
    claims: list[int] = []
    claim = delivery._claim

    def counted(*args: Any) -> list[str]:
        won = claim(*args)
        claims.append(len(won))
        return won

    monkeypatch.setattr(delivery, "_claim", counted)
    other = Receiver().start()
    try:
        mine = endpoint(api, receiver.url, ["pass.created"])
        endpoint(api, other.url, ["pass.created"])
        for n in range(3):
            issue(api, f"Member {n}", google=False)
        assert _deliver(app, mine["id"]) == 3
        receiver.wait_for(3)
        time.sleep(0.2)  # a request to the other endpoint, if one were sent, is in by now
        assert other.requests == [] and claims == [2, 1, 0]
    finally:
        other.stop()


def test_a_job_gives_the_other_endpoints_a_turn(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.services.webhooks import delivery

    monkeypatch.setattr(delivery, "BATCH", 2)
    monkeypatch.setattr(delivery, "TURN_SECONDS", 0.0)
    endpoint_id, _ = _pending(app, api, receiver, 3)
    held_jobs.clear()
    assert _deliver(app, endpoint_id) == 2  # one batch, then back in the queue
    assert held_jobs == [("deliver_webhooks", endpoint_id)]
    assert _deliver(app, endpoint_id) == 1


def test_requests_of_a_batch_are_in_flight_together_and_recorded_at_once(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list) -> None:
    from sqlalchemy import event

    from webapp.extensions import db
    from webapp.services.webhooks import delivery

    # Counted, not timed (a loaded machine slows every request alike): the first request is
    # answered alone, no other arriving while it waits; the next IN_FLIGHT wait at a barrier
    # that only all of them together pass. Sent one after another, the first of them waits
    # alone and breaks it after 3 s, before the client's 10 s timeout would send the next.
    together = threading.Barrier(delivery.IN_FLIGHT, timeout=3)
    arrived: list[Any] = []
    first_alone: list[bool] = []
    lock = threading.Lock()

    def answer(request: Any) -> tuple[int, dict[str, str], float]:
        with lock:
            arrived.append(request)
            number = len(arrived)
        if number == 1:
            time.sleep(0.3)  # long enough for a request sent with it to arrive
            with lock:
                first_alone.append(len(arrived) == 1)
            return 200, {}, 0.0
        try:
            together.wait()
        except threading.BrokenBarrierError:
            return 503, {}, 0.0
        return 200, {}, 0.0

    receiver.answer = answer
    endpoint_id, ids = _pending(app, api, receiver, 1 + delivery.IN_FLIGHT)
    statements: list[str] = []
    with app.app_context():
        def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            statements.append(statement.split("(")[0].split(" SET")[0].strip())

        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            assert delivery.deliver_endpoint(endpoint_id) == len(ids)
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
    assert first_alone == [True]
    assert not together.broken and len(arrived) == len(ids)
    assert statements.count("INSERT INTO webhook_attempts") == 1  # one executemany
    assert statements.count("UPDATE webhook_deliveries") == 2  # the claim, the record
    rows = _rows(app)
    assert all(r.status == "succeeded" and r.attempts == 1 for r in rows)


def test_after_a_failure_in_flight_no_other_request_starts(
        app: Flask, api: Api, receiver: Receiver, held_jobs: list, frozen: Clock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.services.webhooks import delivery

    monkeypatch.setattr(delivery, "IN_FLIGHT", 2)
    frozen.now = frozen.now.replace(microsecond=0)
    endpoint_id, ids = _pending(app, api, receiver, 6)
    rows = {r.id: r for r in _rows(app)}
    failing = rows[ids[1]].event_id
    # The failure answers at once, while the request started beside it is still in flight.
    receiver.answer = lambda r: (500, {}, 0.0) if r.headers["webhook-id"] == failing \
        else (200, {}, 0.3)
    held_jobs.clear()
    assert _deliver(app, endpoint_id) == 3  # the first; then ids[1] fails beside ids[2]
    rows = {r.id: r for r in _rows(app)}
    retry_at = frozen.now + timedelta(seconds=5)
    assert [rows[i].status for i in ids[:3]] == ["succeeded", "pending", "succeeded"]
    assert rows[ids[1]].attempts == 1 and rows[ids[1]].next_attempt_at == retry_at
    for other in ids[3:]:  # never started: they wait for the endpoint's next try
        assert rows[other].attempts == 0 and rows[other].locked_until is None
        assert rows[other].next_attempt_at == retry_at
    assert _endpoint(app, endpoint_id).resting_until == retry_at
    assert len(receiver.requests) == 3
