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
from webapp.db.transaction import DISPATCHER, transaction


@pytest.fixture(autouse=True)
def _inline(app: Flask) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True)


@pytest.fixture
def lost_jobs(app: Flask):  # type: ignore[no-untyped-def]
    """While active, every enqueued job is dropped (as when Redis loses its queue)."""
    from jobs import queue

    app.extensions[DISPATCHER] = lambda task, *row_ids: None
    yield
    app.extensions[DISPATCHER] = queue.enqueue


def _sweep(app: Flask) -> int:
    from webapp.services.outbox import sweep

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

    app.extensions[DISPATCHER] = queue.enqueue  # Redis is back
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
    from webapp.services.webhooks import delivery as webhook_delivery

    now = datetime.now(UTC)
    clock.set_now(lambda: now)
    hook = endpoint(api, receiver.url, ["pass.created"])
    issue(api, google=False)
    [delivery_id] = _delivery_ids(app)
    with app.app_context():
        assert webhook_delivery._claim(hook["id"], 60) == [delivery_id]  # taken, then died
        assert webhook_delivery.deliver_endpoint(hook["id"]) == 0  # held: nobody sends it
    app.extensions[DISPATCHER] = queue.enqueue
    now += timedelta(seconds=59)
    assert _sweep(app) == 0
    now += timedelta(seconds=2)
    assert _sweep(app) == 1
    receiver.wait_for(1)
    with app.app_context():
        assert webhook_delivery.deliver_endpoint(hook["id"]) == 0  # done: a second is a no-op
    assert len(receiver.requests) == 1


def _database(app: Flask) -> dict[str, list[str]]:
    """Every row of every table, to compare before and after."""
    from sqlalchemy import select

    from webapp.extensions import db

    with app.app_context():
        try:
            return {table.name: sorted(repr(tuple(row))
                                       for row in db.session.execute(select(table)))
                    for table in db.metadata.sorted_tables}
        finally:
            db.session.remove()


def test_jobs_for_unknown_or_malformed_ids_do_nothing(app: Flask, api: Api, receiver: Receiver,
                                                      lost_jobs) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import select, update

    from jobs import tasks
    from webapp.extensions import db
    from webapp.models import GoogleObject, PassUpdate, WebhookDelivery
    from webapp.services.google import sync
    from webapp.services.outbox import pass_updates
    from webapp.services.webhooks import delivery as webhook_delivery

    # Pending work of every kind whose jobs were lost: a job that picked up the wrong row
    # (or any row) would deliver, write or change it.
    endpoint(api, receiver.url, ["pass.created"])
    apple_only = issue(api, google=False)
    issue(api, "Grace")  # with a Google object to write
    changed = api.patch(f"/v1/passes/{apple_only['id']}", {"fieldValues": {"member": "Ann"}})
    assert changed.status_code == 200, changed.get_json()
    with app.app_context():
        with transaction() as session:  # (it failed at once: no Google credentials here)
            session.execute(update(GoogleObject).values(state="pending"))
        [delivery_id, _] = db.session.scalars(select(WebhookDelivery.id).where(
            WebhookDelivery.status == "pending"))
        [update_id] = db.session.scalars(select(PassUpdate.id).where(
            PassUpdate.delivery_state == "pending"))
        assert db.session.scalars(select(GoogleObject.state)).all() == ["pending"]
        db.session.remove()
    enqueued: list[tuple[str, str]] = []
    app.extensions[DISPATCHER] = lambda task, *row_ids: enqueued.append((task, *row_ids))
    before = _database(app)
    malformed = ["not-an-id", "", " ", "whdl_", "whdl_!", "whdl_" + "a" * 200, "x" * 10_000,
                 "'; DELETE FROM webhook_deliveries; --", "pass_%", "pupd_*", "pupd_nope\x00",
                 "pass_nope\x00", "whdl_nope\x00"]
    # unknown IDs, and real IDs of another kind of row (the Apple-only pass has no Google
    # object to write either)
    unknown = ["whdl_nope", "pupd_nope", "pass_nope", apple_only["id"], delivery_id, update_id]
    with app.app_context():
        for row_id in malformed + unknown + ["we_nope", "we_nope\x00"]:
            if row_id != delivery_id:
                assert tasks.deliver_webhook(row_id) is None
                assert tasks.deliver_webhooks(row_id) is None
                assert webhook_delivery.deliver_endpoint_of(row_id) == 0, row_id
                assert webhook_delivery.deliver_endpoint(row_id) == 0, row_id
            if row_id != update_id:
                assert tasks.deliver_pass_update(row_id) is None
                assert pass_updates.push(row_id) is None, row_id
            assert tasks.sync_google_pass(row_id) is None
            assert sync.sync(row_id) is None, row_id
    assert _database(app) == before
    assert enqueued == []
    assert receiver.requests == []
    # The check can see a job at work: the known delivery is sent and its row changes.
    with app.app_context():
        assert webhook_delivery.deliver_endpoint_of(delivery_id) == 2  # and its fellow
    receiver.wait_for(1)
    assert _database(app)["webhook_deliveries"] != before["webhook_deliveries"]


def test_the_in_process_sweeper_thread_sweeps(app: Flask, api: Api, receiver: Receiver,
                                              lost_jobs) -> None:  # type: ignore[no-untyped-def]
    from jobs import queue

    endpoint(api, receiver.url, ["pass.created"])
    issue(api, google=False)
    app.extensions[DISPATCHER] = queue.enqueue
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
        app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import timedelta

    from sqlalchemy import func, select

    from webapp import clock
    from webapp.extensions import db
    from webapp.models import Event, GoogleCallbackNonce, IdempotencyRecord
    from webapp.services.outbox import sweep

    api.post("/v1/templates", {"name": "x"})  # an idempotency record (a 400 answer)
    now = clock.now()
    with app.app_context():
        with transaction() as session:
            session.add(GoogleCallbackNonce(nonce="old", object_id="o", event_type="save",
                                            expires_at=now - timedelta(minutes=1)))
            session.add(GoogleCallbackNonce(nonce="new", object_id="o", event_type="save",
                                            expires_at=now + timedelta(hours=1)))
            from webapp.services.webhooks import events

            events.emit(session, organization_id=api.get("/v1/me").get_json()["organizationId"],
                        environment="test", type="pass.created", data={"object": {}})
        assert db.session.scalar(select(func.count()).select_from(Event)) == 1
        later = now + timedelta(days=31)
        clock.set_now(lambda: later)
        monkeypatch.setattr(sweep, "_last_purge", None)  # this process has not purged yet
        sweep.run()
        left = set(db.session.scalars(select(GoogleCallbackNonce.nonce)))
        records = db.session.scalar(select(func.count()).select_from(IdempotencyRecord))
        old_events = db.session.scalar(select(func.count()).select_from(Event))
    assert left == set()  # both are past their expiry 31 days later
    assert records == 0 and old_events == 0


def _purgeable(app: Flask, api: Api) -> None:
    """An idempotency record, an event and an expired callback nonce, all written now."""
    from webapp import clock
    from webapp.models import GoogleCallbackNonce
    from webapp.services.webhooks import events

    assert api.post("/v1/templates", {"name": "x"}).status_code == 400  # a record (its 400)
    organization_id = api.get("/v1/me").get_json()["organizationId"]
    now = clock.now()
    with app.app_context(), transaction() as session:
        session.add(GoogleCallbackNonce(nonce=f"old-{now.timestamp()}", object_id="o",
                                        event_type="save", expires_at=now - timedelta(minutes=1)))
        events.emit(session, organization_id=organization_id, environment="test",
                    type="pass.created", data={"object": {}})


def _left(app: Flask) -> dict[str, int]:
    """How many events, idempotency records and (expired) callback nonces are left."""
    from sqlalchemy import func, select

    from webapp.extensions import db
    from webapp.models import Event, GoogleCallbackNonce, IdempotencyRecord

    with app.app_context():
        try:
            return {"events": db.session.scalar(select(func.count()).select_from(Event)),
                    "records": db.session.scalar(
                        select(func.count()).select_from(IdempotencyRecord)),
                    "expired nonces": db.session.scalar(
                        select(func.count()).select_from(GoogleCallbackNonce)
                        .where(GoogleCallbackNonce.nonce.startswith("old-")))}
        finally:
            db.session.remove()


def test_the_first_sweep_purges_even_on_a_machine_booted_minutes_ago(
        app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """`time.monotonic()` counts from boot: a process that has not purged yet must not wait
    for the clock to pass PURGE_EVERY; afterwards it purges once every PURGE_EVERY."""
    from types import SimpleNamespace

    from webapp.models import GoogleCallbackNonce
    from webapp.services.outbox import sweep

    monotonic = [5.0]  # five seconds after boot
    monkeypatch.setattr(sweep, "time", SimpleNamespace(monotonic=lambda: monotonic[0]))
    monkeypatch.setattr(sweep, "_last_purge", None)  # a new process
    now = datetime.now(UTC)
    clock.set_now(lambda: now)
    with app.app_context(), transaction() as session:  # a nonce that stays valid throughout
        session.add(GoogleCallbackNonce(nonce="valid", object_id="o", event_type="save",
                                        expires_at=now + timedelta(days=365)))
    _purgeable(app, api)
    assert _left(app) == {"events": 1, "records": 1, "expired nonces": 1}
    now += timedelta(days=31)
    _sweep(app)
    assert _left(app) == {"events": 0, "records": 0, "expired nonces": 0}
    # More of them, old enough a month later, but the next sweeps come within PURGE_EVERY:
    _purgeable(app, api)
    now += timedelta(days=31)
    monotonic[0] += sweep.PURGE_EVERY - 1
    _sweep(app)
    assert _left(app) == {"events": 1, "records": 1, "expired nonces": 1}
    monotonic[0] += 1
    _sweep(app)
    assert _left(app) == {"events": 0, "records": 0, "expired nonces": 0}
    from sqlalchemy import select

    from webapp.extensions import db

    with app.app_context():
        assert db.session.scalars(select(GoogleCallbackNonce.nonce)).all() == ["valid"]


def test_stale_pass_updates_are_pushed_by_one_job(app: Flask, api: Api, lost_jobs) -> None:  # type: ignore[no-untyped-def]
    """The pass updates a sweep finds go out together (one `deliver_pass_updates` job), as
    a bulk job chunk's do, not a job each."""
    now = datetime.now(UTC)
    clock.set_now(lambda: now)
    passes = [issue(api, name, google=False) for name in ("Ada", "Bo", "Cy")]
    updates = [api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"member": "Ann"}}
                         ).get_json()["update"]["id"] for p in passes]
    enqueued: list[tuple[str, ...]] = []
    app.extensions[DISPATCHER] = lambda task, *row_ids: enqueued.append((task, *row_ids))
    assert _sweep(app) == 0  # their jobs may still be on their way
    clock.set_now(lambda: now + timedelta(seconds=app.config["SWEEP_STALE_SECONDS"] + 1))
    assert _sweep(app) == 3
    [(task, *row_ids)] = enqueued
    assert task == "deliver_pass_updates" and sorted(row_ids) == sorted(updates)
