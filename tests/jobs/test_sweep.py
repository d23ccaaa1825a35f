"""The sweep: lost jobs are found again, held rows wait for their lease, jobs are
idempotent, and the in-process sweeper thread runs the sweep by itself."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask

from tests.conftest import Api
from tests.support.receiver import Receiver
from tests.webhooks.conftest import endpoint, issue
from webapp import clock


@pytest.fixture(autouse=True)
def _inline(app: Flask) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True)


@pytest.fixture
def lost_jobs():  # type: ignore[no-untyped-def]
    """While active, every enqueued job is dropped (as when Redis loses its queue)."""
    from jobs import queue
    from webapp.services import outbox

    outbox.set_dispatcher(lambda task, row_id: None)
    yield
    outbox.set_dispatcher(queue.enqueue)


def _sweep(app: Flask) -> int:
    from webapp.services import sweep

    with app.app_context():
        return sweep.run()


def _delivery_ids(app: Flask) -> list[str]:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import WebhookDelivery

    with app.app_context():
        return list(db.session.scalars(select(WebhookDelivery.id)))


def test_a_lost_job_is_found_by_the_sweep_once_stale(app: Flask, api: Api, receiver: Receiver,
                                                     lost_jobs) -> None:  # type: ignore[no-untyped-def]
    now = datetime.now(UTC)
    clock.set_now(lambda: now)
    endpoint(api, receiver.url, ["pass.created"])
    issue(api, google=False)
    from jobs import queue
    from webapp.services import outbox

    outbox.set_dispatcher(queue.enqueue)  # Redis is back
    assert receiver.requests == []
    assert _sweep(app) == 0  # its first job may still be on its way
    now += timedelta(seconds=31)
    assert _sweep(app) == 1
    [_request] = receiver.wait_for(1)
    assert _sweep(app) == 0


def test_a_row_held_by_a_dead_worker_waits_for_the_lease(app: Flask, api: Api,
                                                         receiver: Receiver,
                                                         lost_jobs) -> None:  # type: ignore[no-untyped-def]
    from jobs import queue
    from webapp.services import outbox, webhook_delivery

    now = datetime.now(UTC)
    clock.set_now(lambda: now)
    endpoint(api, receiver.url, ["pass.created"])
    issue(api, google=False)
    [delivery_id] = _delivery_ids(app)
    with app.app_context():
        assert webhook_delivery._claim(delivery_id)  # a worker took it, then died
        assert webhook_delivery.deliver(delivery_id) is None  # held: nobody else sends it
    outbox.set_dispatcher(queue.enqueue)
    now += timedelta(seconds=59)
    assert _sweep(app) == 0
    now += timedelta(seconds=2)
    assert _sweep(app) == 1
    receiver.wait_for(1)
    with app.app_context():
        assert webhook_delivery.deliver(delivery_id) is None  # done: a second job is a no-op
    assert len(receiver.requests) == 1


def test_jobs_for_unknown_or_malformed_ids_do_nothing(app: Flask) -> None:
    from jobs import tasks

    with app.app_context():
        tasks.deliver_webhook("whdl_nope")
        tasks.deliver_webhook("not-an-id")
        tasks.deliver_pass_update("pupd_nope")


def test_the_in_process_sweeper_thread_sweeps(app: Flask, api: Api, receiver: Receiver,
                                              lost_jobs) -> None:  # type: ignore[no-untyped-def]
    from jobs import queue
    from webapp.services import outbox

    endpoint(api, receiver.url, ["pass.created"])
    issue(api, google=False)
    outbox.set_dispatcher(queue.enqueue)
    app.config["SWEEP_STALE_SECONDS"] = 0
    sweeper = queue.Sweeper(app, 0.1).start()
    try:
        receiver.wait_for(1, timeout=10)
    finally:
        sweeper.stop()


def test_the_web_process_starts_a_sweeper_without_redis(app: Flask, api: Api) -> None:
    from jobs import queue

    app.testing = False
    try:
        queue.init_app(app)
        api.get("/v1/me")
        sweeper = app.extensions["sweeper"]
        assert sweeper.thread.is_alive()
        sweeper.stop()
        sweeper.thread.join(timeout=10)
    finally:
        app.testing = True


def test_redis_unset_enqueue_runs_in_a_thread(app: Flask, api: Api, receiver: Receiver) -> None:
    app.config.update(JOBS_SYNCHRONOUS=False, REDIS_URL=None, WEBHOOK_TIMEOUT_SECONDS=5)
    issued = threading.Event()
    # The receiver answers only once the issue request has returned: run inline, the
    # delivery would time out instead (and the request would wait for it).
    receiver.answer = lambda r: (200 if issued.wait(10) else 500, {}, 0.0)
    hook = endpoint(api, receiver.url, ["pass.created"])
    started = time.monotonic()
    issue(api, google=False)
    issued.set()
    receiver.wait_for(1, timeout=10)
    assert time.monotonic() - started < 10
    path = f"/v1/webhook-endpoints/{hook['id']}/deliveries"
    deadline = time.monotonic() + 10
    while (delivery := api.get(path).get_json()["data"][0])["status"] == "pending" and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    assert delivery["status"] == "succeeded"
    assert [a["responseStatus"] for a in delivery["attempts"]] == [200]


def test_the_sweep_purges_old_events_idempotency_records_and_callback_nonces(
        app: Flask, api: Api) -> None:
    from datetime import timedelta

    from sqlalchemy import func, select

    from webapp import clock
    from webapp.extensions import db
    from webapp.models import Event, GoogleCallbackNonce, IdempotencyRecord
    from webapp.services import sweep
    from webapp.services._tx import transaction

    api.post("/v1/templates", {"name": "x"})  # an idempotency record (a 400 answer)
    now = clock.now()
    with app.app_context():
        with transaction() as session:
            session.add(GoogleCallbackNonce(nonce="old", object_id="o", event_type="save",
                                            expires_at=now - timedelta(minutes=1)))
            session.add(GoogleCallbackNonce(nonce="new", object_id="o", event_type="save",
                                            expires_at=now + timedelta(hours=1)))
            from webapp.services import events

            events.emit(session, organization_id=api.get("/v1/me").get_json()["organizationId"],
                        environment="test", type="pass.created", data={"object": {}})
        assert db.session.scalar(select(func.count()).select_from(Event)) == 1
        later = now + timedelta(days=31)
        clock.set_now(lambda: later)
        sweep._last_purge = 0.0
        sweep.run()
        left = set(db.session.scalars(select(GoogleCallbackNonce.nonce)))
        records = db.session.scalar(select(func.count()).select_from(IdempotencyRecord))
        old_events = db.session.scalar(select(func.count()).select_from(Event))
    assert left == set()  # both are past their expiry 31 days later
    assert records == 0 and old_events == 0
