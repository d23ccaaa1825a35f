"""Webhook jobs under concurrency on PostgreSQL: many workers sending, recording and giving
up the deliveries of one endpoint while events keep coming take their row locks in one order
(an endpoint's deliveries by ID, then the endpoint), so none of them dies in a deadlock.

PostgreSQL lane only: SQLite's writers take turns and cannot deadlock.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from flask import Flask
from sqlalchemy import exc, func, select

from tests.conftest import Api
from tests.support.receiver import Receiver
from tests.webhooks.conftest import endpoint
from webapp import clock
from webapp.db.transaction import DISPATCHER, transaction

THREADS = 8


@pytest.fixture(autouse=True)
def _postgres_only(request: pytest.FixtureRequest) -> None:
    if request.config.getoption("--db") != "postgres":
        pytest.skip("row locks and deadlocks: the PostgreSQL lane (SQLite writers take turns)")


class Deadlocks:
    """Runs calls in app contexts (from any thread) and counts the deadlocks they die of;
    other errors are kept."""

    def __init__(self, app: Flask) -> None:
        self.app, self.deadlocks, self.errors = app, 0, list[BaseException]()
        self._lock = threading.Lock()

    def run(self, call: Callable[[], Any]) -> None:
        with self.app.app_context():
            try:
                call()
            except Exception as error:  # counted, and asserted by the test
                deadlock = isinstance(error, exc.OperationalError) and \
                    isinstance(error.orig, psycopg.errors.DeadlockDetected)
                with self._lock:
                    if deadlock:
                        self.deadlocks += 1
                    else:
                        self.errors.append(error)


class Workers(Deadlocks):
    """Job threads fed from one queue, as RQ workers are: a job that a job enqueues (a
    released delivery) joins the queue."""

    def __init__(self, app: Flask) -> None:
        super().__init__(app)
        self.jobs = queue.Queue[tuple[str, str]]()
        app.extensions[DISPATCHER] = lambda task, row_id: self.jobs.put((task, row_id))

    def work(self, task: Callable[[str, str], Any], meanwhile: Callable[[], None]) -> None:
        """Run the queued jobs on THREADS threads, and `meanwhile` on one more, all starting
        at once, until the queue stays empty."""
        start = threading.Barrier(THREADS + 1)

        def worker() -> None:
            start.wait()
            while True:
                try:
                    job = self.jobs.get(timeout=1.5)
                except queue.Empty:
                    return
                self.run(lambda: task(*job))  # noqa: B023 - called at once

        def other() -> None:
            start.wait()
            self.run(meanwhile)

        pool = [threading.Thread(target=worker) for _ in range(THREADS)]
        pool.append(threading.Thread(target=other))
        for thread in pool:
            thread.start()
        for thread in pool:
            thread.join(120)
        assert not any(thread.is_alive() for thread in pool)


@pytest.fixture
def workers(app: Flask) -> Iterator[Workers]:
    from jobs import queue as job_queue

    yield Workers(app)
    app.extensions[DISPATCHER] = job_queue.enqueue


@pytest.fixture
def held_jobs(app: Flask) -> Iterator[None]:
    """Enqueued jobs are dropped: deliveries stay pending until the test sends them."""
    from jobs import queue as job_queue

    app.extensions[DISPATCHER] = None
    yield
    app.extensions[DISPATCHER] = job_queue.enqueue


def _emit(app: Flask, org_id: str, count: int) -> None:
    """`count` pass.created events in one transaction: a pending delivery each."""
    from webapp.db.transaction import transaction
    from webapp.services.webhooks import events

    with app.app_context(), transaction() as session:
        for _ in range(count):
            events.emit(session, organization_id=org_id, environment="test",
                        type="pass.created", data={"object": {"id": "pass_x"}})


def _deliver(task: str, endpoint_id: str) -> None:
    from webapp.services.webhooks import delivery

    assert task == "deliver_webhooks"
    delivery.deliver_endpoint(endpoint_id)


def _statuses(app: Flask) -> dict[str, int]:
    from webapp.extensions import db
    from webapp.models import WebhookDelivery

    with app.app_context():
        return dict(db.session.execute(  # type: ignore[arg-type]
            select(WebhookDelivery.status, func.count()).group_by(WebhookDelivery.status)).all())


def test_many_workers_on_one_endpoints_deliveries_never_deadlock(
        app: Flask, api: Api, org: dict, receiver: Receiver, workers: Workers) -> None:
    every = itertools.count()
    # Every fifth answer fails: its batch stops, hands the rest back and rests the endpoint.
    receiver.answer = lambda r: (500 if next(every) % 5 == 4 else 200, {}, 0.0)
    endpoint(api, receiver.url, ["pass.created"])
    _emit(app, org["id"], 240)

    def more_events() -> None:
        for _ in range(20):
            _emit(app, org["id"], 3)

    workers.work(_deliver, more_events)
    assert workers.errors == []
    assert workers.deadlocks == 0
    statuses = _statuses(app)
    assert sum(statuses.values()) == 300
    assert set(statuses) <= {"succeeded", "pending"}  # failed ones wait for their retry


class Meanwhile(Deadlocks):
    """Pauses the thread that records a batch just before `statement`, runs `change` in
    another thread until that waits for a row lock, then lets the batch go on: the two
    interleave the way they deadlocked."""

    def __init__(self, app: Flask, statement: str, change: Callable[[], None]) -> None:
        super().__init__(app)
        self.statement, self.change = statement, change
        self.armed = threading.Event()  # set once the batch's POST was made
        self.thread: threading.Thread | None = None

    def __call__(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        """SQLAlchemy's `before_cursor_execute` hook."""
        if self.armed.is_set() and self.thread is None and statement.startswith(self.statement):
            self.thread = threading.Thread(target=self.run, args=(self.change,))
            self.thread.start()
            self._until_someone_waits_for_a_lock()

    def _until_someone_waits_for_a_lock(self) -> None:
        from webapp.extensions import db

        with db.engine.connect() as probe:
            for _ in range(100):
                waiting = probe.exec_driver_sql(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND datname = current_database()").scalar()
                probe.rollback()
                if waiting:
                    return
                time.sleep(0.05)
        raise AssertionError("the change never waited for a lock")


def _record_meanwhile(app: Flask, api: Api, org: dict, receiver: Receiver, statement: str,
                      change: Callable[[str], None], events_age: timedelta = timedelta(0)
                      ) -> tuple[Meanwhile, list[str]]:
    """Two pending deliveries of one endpoint (of events `events_age` old); the first is sent,
    fails, and its batch is recorded (the second handed back) while `change(endpoint_id)`
    runs."""
    from sqlalchemy import event, update

    from webapp.extensions import db
    from webapp.models import Event, WebhookDelivery
    from webapp.services.webhooks import delivery

    hook = endpoint(api, receiver.url, ["pass.created"])
    _emit(app, org["id"], 2)
    with app.app_context():
        if events_age:
            with transaction() as session:
                session.execute(update(Event).values(created_at=clock.now() - events_age))
        ids = sorted(db.session.scalars(select(WebhookDelivery.id)))
        meanwhile = Meanwhile(app, statement, lambda: change(hook["id"]))

        def fail(request: Any) -> tuple[int, dict[str, str], float]:
            meanwhile.armed.set()
            return 500, {}, 0.0

        receiver.answer = fail
        event.listen(db.engine, "before_cursor_execute", meanwhile)
        try:
            meanwhile.run(lambda: delivery.deliver_endpoint(hook["id"]))
        finally:
            event.remove(db.engine, "before_cursor_execute", meanwhile)
    assert meanwhile.thread is not None, "the batch never reached the statement"
    meanwhile.thread.join(30)
    assert meanwhile.errors == []
    return meanwhile, ids


@pytest.mark.usefixtures("held_jobs")
def test_giving_up_an_endpoints_deliveries_while_a_batch_is_recorded_never_deadlocks(
        app: Flask, api: Api, org: dict, receiver: Receiver) -> None:
    from sqlalchemy import text

    from webapp.extensions import db
    from webapp.models import WebhookDelivery
    from webapp.services.webhooks import delivery

    def give_up(endpoint_id: str) -> None:
        # A big table is read through its (endpoint_id, id) index, in ID order; two rows
        # would be read in the order they were last written, so ask for the index here.
        db.session.execute(text("SET LOCAL enable_seqscan = off"))
        delivery.fail_pending(endpoint_id, "endpoint_disabled")

    # The batch writes the attempt it made, then hands the second delivery back.
    meanwhile, ids = _record_meanwhile(
        app, api, org, receiver, "UPDATE webhook_deliveries SET locked_until=", give_up)
    assert meanwhile.deadlocks == 0
    with app.app_context():
        rows = db.session.scalars(select(WebhookDelivery).order_by(WebhookDelivery.id)).all()
        assert [(r.id, r.status, r.failure_code) for r in rows] == [
            (ids[0], "failed", "endpoint_disabled"), (ids[1], "failed", "endpoint_disabled")]
        assert [r.attempts for r in rows] == [1, 0]


@pytest.mark.usefixtures("held_jobs")
def test_deleting_an_endpoint_while_its_batch_is_recorded_never_deadlocks(
        app: Flask, api: Api, org: dict, receiver: Receiver) -> None:
    from webapp.extensions import db
    from webapp.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
    from webapp.services.context import Context
    from webapp.services.webhooks import endpoints

    def delete(endpoint_id: str) -> None:
        endpoints.remove(Context(org["id"], "test"), endpoint_id)

    # The batch writes its deliveries, then starts the endpoint's failing streak.
    meanwhile, _ = _record_meanwhile(
        app, api, org, receiver, "UPDATE webhook_endpoints SET failing_since=", delete)
    assert meanwhile.deadlocks == 0
    with app.app_context():
        for table in (WebhookEndpoint, WebhookDelivery, WebhookAttempt):
            assert db.session.scalar(select(func.count()).select_from(table)) == 0


@pytest.mark.usefixtures("held_jobs")
def test_purging_old_events_while_their_batch_is_recorded_never_deadlocks(
        app: Flask, api: Api, org: dict, receiver: Receiver,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.extensions import db
    from webapp.models import Event, WebhookAttempt, WebhookDelivery
    from webapp.services.outbox import sweep

    def purge(endpoint_id: str) -> None:
        sweep.run()

    monkeypatch.setattr(sweep, "_last_purge", None)  # this process has not purged yet
    meanwhile, _ = _record_meanwhile(
        app, api, org, receiver, "UPDATE webhook_deliveries SET locked_until=", purge,
        events_age=timedelta(days=31))
    assert meanwhile.deadlocks == 0
    with app.app_context():
        for table in (Event, WebhookDelivery, WebhookAttempt):
            assert db.session.scalar(select(func.count()).select_from(table)) == 0
