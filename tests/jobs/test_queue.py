"""The jobs/ queue: in-process without REDIS_URL, RQ on a real Redis with it."""

from __future__ import annotations

import threading
import time

import pytest

from tests.api.factories import template_body
from tests.conftest import Api
from tests.support.services import RedisServer


@pytest.fixture(scope="module")
def redis_server():
    server = RedisServer()
    yield server
    server.stop()


def _issue_and_update(api: Api) -> dict:
    t = api.post("/v1/templates", template_body()).get_json()
    p = api.post("/v1/passes", {"templateId": t["id"], "fieldValues": {"member": "A"}}
                 ).get_json()
    response = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"member": "B"}})
    assert response.status_code == 200
    return response.get_json()


def test_without_redis_jobs_run_in_process(app, api: Api, monkeypatch) -> None:
    from webapp.services.outbox import pass_updates

    ran = threading.Event()
    seen: list[str] = []

    def step(records) -> None:
        seen.extend(record.id for record in records)
        ran.set()

    # setitem restores the real Apple step afterwards (popping it left later tests without).
    monkeypatch.setitem(pass_updates.STEPS, "apple", step)
    app.config["REDIS_URL"] = None
    body = _issue_and_update(api)
    assert ran.wait(10), "the delivery job did not run"
    assert seen == [body["update"]["id"]]


def test_with_redis_jobs_go_to_rq(app, api: Api, redis_server) -> None:
    from redis import Redis
    from rq import Queue

    app.config["REDIS_URL"] = redis_server.url
    app.extensions.pop("rq_queues", None)
    body = _issue_and_update(api)
    queue = Queue("default", connection=Redis.from_url(redis_server.url))
    jobs = [j for j in queue.get_jobs() if j.func_name == "jobs.tasks.deliver_pass_update"]
    assert [j.args for j in jobs] == [(body["update"]["id"],)]
    queue.empty()


def test_redis_down_never_fails_the_request(app, api: Api) -> None:
    from tests.support.services import free_port

    app.config["REDIS_URL"] = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens here
    app.extensions.pop("rq_queues", None)
    started = time.monotonic()
    body = _issue_and_update(api)
    assert body["update"]["delivery"]["apple"]["status"] == "pending"
    assert time.monotonic() - started < 10


def test_the_worker_beats_at_most_every_few_seconds_but_never_skips_a_job_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from rq import SimpleWorker

    from jobs import worker

    beats: list[tuple[object, object]] = []
    monkeypatch.setattr(SimpleWorker, "heartbeat",
                        lambda self, timeout=None, pipeline=None: beats.append((timeout, pipeline)))
    now = [1000.0]
    monkeypatch.setattr(worker.time, "monotonic", lambda: now[0])
    process = object.__new__(worker.AppWorker)
    for _ in range(3):
        process.heartbeat()  # RQ's beats around each job: one goes through
    assert beats == [(None, None)]
    process.heartbeat(240, pipeline="pipe")  # a job's start (its own TTL, in a pipeline)
    assert beats[-1] == (240, "pipe")
    now[0] += worker.HEARTBEAT_EVERY
    process.heartbeat()
    assert len(beats) == 3 and beats[-1] == (None, None)


def test_a_row_whose_job_a_killed_worker_took_is_queued_again(app, redis_server) -> None:
    """A worker killed after taking a job and before starting it leaves the row marked as
    waiting; an enqueue (the sweep's) once the mark is old enough sees the marked job is no
    longer queued, and queues the row again."""
    from redis import Redis
    from rq import Queue
    from rq.job import Job, JobStatus

    from jobs import queue as jobs_queue

    app.config["REDIS_URL"] = redis_server.url
    app.extensions.pop("rq_queues", None)
    connection = Redis.from_url(redis_server.url)
    bulk = Queue("bulk", connection=connection)
    bulk.empty()
    with app.app_context():
        jobs_queue.enqueue("run_bulk_job", "bjob_lost")
        jobs_queue.enqueue("run_bulk_job", "bjob_lost")  # still queued: no second job
        [first] = bulk.get_job_ids()
        assert connection.get(jobs_queue.waiting_key("bjob_lost")) == first.encode()
        # A worker takes the job off the queue and dies before the job starts (its status
        # still says queued).
        assert connection.lpop(bulk.key) == first.encode()
        assert Job.fetch(first, connection=connection).get_status() == JobStatus.QUEUED
        jobs_queue.enqueue("run_bulk_job", "bjob_lost")  # the mark is too young to be lost
        assert bulk.get_job_ids() == []
        mark = jobs_queue.waiting_key("bjob_lost")
        connection.expire(mark, jobs_queue.WAITING_TTL - jobs_queue.TAKE_OVER_AFTER)
        jobs_queue.enqueue("run_bulk_job", "bjob_lost")
        [second] = bulk.get_job_ids()
        jobs_queue.enqueue("run_bulk_job", "bjob_lost")  # the new one waits: no third
    assert second != first and bulk.get_job_ids() == [second]
    assert Job.fetch(second, connection=connection).args == ("bjob_lost",)
    assert connection.get(mark) == second.encode()
    jobs_queue.unmark(connection, ["bjob_lost"], first)  # the lost job starts after all
    assert connection.get(mark) == second.encode()  # the row's job is still the queued one
    jobs_queue.unmark(connection, ["bjob_lost"], second)
    assert connection.get(mark) is None
    bulk.empty()


def test_enqueuers_racing_a_worker_never_queue_a_row_twice(app, redis_server) -> None:
    """Requests and sweeps on several nodes enqueue the same rows at once while a worker takes
    jobs: at no moment does the queue hold more jobs than rows. (A row marked a moment before
    its job is pushed, or taken over by two enqueuers at once, used to get a job each.)"""
    from redis import Redis
    from rq import Queue
    from rq.job import Job

    from jobs import queue as jobs_queue

    app.config["REDIS_URL"] = redis_server.url
    app.extensions.pop("rq_queues", None)
    connection = Redis.from_url(redis_server.url)
    webhooks = Queue("webhooks", connection=connection)
    webhooks.empty()
    rows = [f"we_race{n}" for n in range(4)]
    connection.delete(*(jobs_queue.waiting_key(row) for row in rows))
    stop = threading.Event()
    longest = 0

    def enqueuer(turn: int) -> None:
        n = turn
        while not stop.is_set():
            jobs_queue.enqueue("deliver_webhooks", rows[n % len(rows)], app=app)
            n += 1

    def worker() -> None:  # takes a job, then starts it (unmarks its rows), as AppWorker does
        while not stop.is_set():
            job_id = connection.lpop(webhooks.key)
            if job_id is None:
                time.sleep(0.001)
                continue
            job = Job.fetch(job_id.decode(), connection=connection)
            jobs_queue.unmark(connection, job.args, job.id)
            time.sleep(0.005)

    threads = [threading.Thread(target=enqueuer, args=(n,)) for n in range(4)]
    threads.append(threading.Thread(target=worker))
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        longest = max(longest, connection.llen(webhooks.key))
    stop.set()
    for thread in threads:
        thread.join()
    queued = [Job.fetch(i, connection=connection).args for i in webhooks.get_job_ids()]
    webhooks.empty()
    assert longest <= len(rows)
    assert len(queued) == len(set(queued))
