"""`enqueue(task, *ids)`: RQ on Redis when `REDIS_URL` is set, else a thread in this process.

Three queues, so one kind of work never waits behind all of another: `bulk` (a bulk job's
turn: one chunk), `default` (wallet pushes, Google writes, emails), taken in turn by a
worker's main thread, and `webhooks` (a job per endpoint), with threads of its own, several at
once, so a receiver that is slow holds up only its own deliveries.

Task functions live in `jobs.tasks`, take IDs only and call one service function each.
The database is the source of truth: a job only says "look at this row now", so a job
that is lost is found again by the periodic sweep, and a job that runs twice does no harm.

A row waits in the queue at most once. Each argument of a job is the ID of a row it looks at;
`enqueue` marks each row as waiting (a Redis key per row, set only if absent, or an entry in
this process's set) and queues a job for the rows it marked, or no job when all of them wait
already. A job unmarks its rows as it starts, so work that comes while it runs gets a job of
its own. Whoever enqueues, a request after its commit or any number of sweeps on any number
of nodes, the queue holds at most the pending work, however long it has waited. A mark
holds its job's ID: a row whose marked job is no longer queued (a worker killed after taking
it and before it started, or a job lost with Redis) is marked and queued again by the next
`enqueue`, such as the sweep's, once the mark is `TAKE_OVER_AFTER` old (a younger mark's job
may be on its way into the queue); a mark nobody looks at ends after `WAITING_TTL`. Marking,
taking over and unmarking are each one Lua script, so enqueuers and workers racing on a row
do not leave two of its jobs queued. A second job can still come from a push that takes
longer than `TAKE_OVER_AFTER`, or one Redis made but answered with an error: harmless, as
any job that runs twice.

The sweep (`jobs.tasks.sweep_pending`) runs every `SWEEP_INTERVAL_SECONDS`: in every RQ worker
when Redis is used (`jobs.worker`), else in a thread of each web process, started with its
first request; one at a time across them all (`webapp.db.locks`). Tests (`TESTING`) run it
by hand instead.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask, current_app

from webapp import metrics

log = logging.getLogger("jobs.queue")

QUEUE_NAME = "default"
BULK_QUEUE = "bulk"
WEBHOOK_QUEUE = "webhooks"
QUEUE_OF = {"run_bulk_job": BULK_QUEUE, "send_message": BULK_QUEUE,
            "deliver_webhooks": WEBHOOK_QUEUE,
            "deliver_webhook": WEBHOOK_QUEUE}
QUEUE_NAMES = (BULK_QUEUE, QUEUE_NAME)  # what a worker's main thread takes, in turn
WEBHOOK_THREADS = 4  # webhook jobs one process runs at once (RQ worker or web process)
SWEEP_TASK = "sweep_pending"
# Every task of `jobs.tasks` (the `kind` label of the job metrics).
TASKS = frozenset({"deliver_pass_update", "deliver_pass_updates", "sync_google_pass",
                   "deliver_webhooks", "deliver_webhook", "send_pass_email",
                   "send_invitation_email", "run_bulk_job", "send_message", SWEEP_TASK})
EXECUTORS = "job_executors"  # app.extensions key: the threads of in-process jobs, by queue
WAITING_TTL = 900  # seconds a row's "waiting" mark lasts if its job never starts
TAKE_OVER_AFTER = 10  # seconds before a mark whose job is not queued counts as lost
_WAITING = "jobs_waiting"  # app.extensions key: rows waiting in this process's queues
_REDIS_DOWN_FOR = 5.0  # seconds this process leaves Redis alone after it failed to answer


def enqueue(task: str, *ids: str, app: Flask | None = None) -> None:
    """Run `jobs.tasks.<task>(*ids)` in the background for the rows not already waiting;
    never raises (the sweep retries)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    queue = QUEUE_OF.get(task, QUEUE_NAME)
    try:
        if app.config.get("REDIS_URL"):
            _enqueue_rq(app, queue, task, ids)
        elif app.config.get("JOBS_SYNCHRONOUS"):
            _run(app, task, ids)
        else:
            fresh = _mark_in_process(app, ids)
            if fresh or not ids:
                app.extensions[EXECUTORS][queue].submit(_run, app, task, fresh, True)
    except Exception as exc:  # Redis down: the row stays pending and the sweep enqueues it
        log.warning("could not enqueue %s (%s); the sweep will pick it up", task,
                    type(exc).__name__)


def waiting_key(row_id: str) -> str:
    """The Redis key that says a job for this row waits in a queue."""
    return f"jobs:waiting:{row_id}"


def unmark(connection: Any, ids: Iterable[str], job_id: str) -> None:
    """Job `job_id` for these rows has started (RQ): later work on them may be queued again.
    A row marked for another job meanwhile (taken over) keeps that mark."""
    keys = [waiting_key(row_id) for row_id in ids]
    if keys:
        connection.eval(_UNMARK, len(keys), *keys, job_id)


# KEYS: the rows' marks. ARGV: the job that started.
_UNMARK = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
"""

# KEYS[1]: the queue; KEYS[2..]: the rows' marks. ARGV: the new job, WAITING_TTL,
# TAKE_OVER_AFTER. A row is won when it had no mark, or its mark is old enough and names a job
# no longer in the queue (lost: one scan of the queue per job named); 1 or 0 per row.
_MARK = """
local won, queued = {}, {}
local old_after = (tonumber(ARGV[2]) - tonumber(ARGV[3])) * 1000
for i = 2, #KEYS do
  local key = KEYS[i]
  won[i - 1] = 0
  if redis.call('SET', key, ARGV[1], 'NX', 'EX', ARGV[2]) then
    won[i - 1] = 1
  elseif redis.call('PTTL', key) <= old_after then
    local job = redis.call('GET', key)
    if queued[job] == nil then
      queued[job] = redis.call('LPOS', KEYS[1], job) ~= false
    end
    if not queued[job] then
      redis.call('SET', key, ARGV[1], 'EX', ARGV[2])
      won[i - 1] = 1
    end
  end
end
return won
"""


def _enqueue_rq(app: Flask, queue: str, task: str, ids: tuple[str, ...]) -> None:
    down_until = app.extensions.get("redis_down_until", 0.0)
    if time.monotonic() < down_until:  # don't make every request wait for a dead Redis
        raise ConnectionError("Redis did not answer a moment ago")
    rq_queue = _rq_queue(app, queue)
    connection = rq_queue.connection
    fresh = ids = tuple(dict.fromkeys(ids))
    job_id = uuid.uuid4().hex
    try:
        if ids:
            won = connection.eval(_MARK, len(ids) + 1, rq_queue.key,
                                  *(waiting_key(row_id) for row_id in ids),
                                  job_id, WAITING_TTL, TAKE_OVER_AFTER)
            fresh = tuple(row_id for row_id, w in zip(ids, won, strict=True) if w)
            if not fresh:
                return
        try:
            rq_queue.enqueue(f"jobs.tasks.{task}", *fresh, job_id=job_id, result_ttl=0,
                             failure_ttl=24 * 3600)
        except Exception:
            with contextlib.suppress(Exception):  # else the rows wait for their marks to end
                unmark(connection, fresh, job_id)
            raise
    except Exception:
        app.extensions["redis_down_until"] = time.monotonic() + _REDIS_DOWN_FOR
        raise


def _mark_in_process(app: Flask, ids: tuple[str, ...]) -> tuple[str, ...]:
    waiting, lock = app.extensions[_WAITING]
    with lock:
        fresh = tuple(row_id for row_id in dict.fromkeys(ids) if row_id not in waiting)
        waiting.update(fresh)
    return fresh


def _run(app: Flask, task: str, args: tuple[str, ...], marked: bool = False) -> Any:
    from jobs import tasks

    if marked:
        waiting, lock = app.extensions[_WAITING]
        with lock:
            waiting.difference_update(args)
    with app.app_context(), timed(task) as outcome:
        try:
            return getattr(tasks, task)(*args)
        except Exception:
            log.exception("job %s failed", task)
            outcome[0] = metrics.FAILED
            return None


@contextlib.contextmanager
def timed(task: str) -> Iterator[list[str]]:
    """Count a job of `task` and its duration; the block sets `outcome[0]` when it failed."""
    outcome = [metrics.SUCCEEDED]
    started = time.perf_counter()
    try:
        yield outcome
    except BaseException:
        outcome[0] = metrics.FAILED
        raise
    finally:
        kind = task if task in TASKS else "other"  # a label from a fixed set, whatever came
        metrics.JOBS.labels(kind, outcome[0]).inc()
        metrics.JOB_LATENCY.labels(kind).observe(time.perf_counter() - started)


def depths(app: Flask) -> dict[str, int] | None:
    """Jobs waiting in each queue: RQ's in Redis (None when it does not answer), else this
    process's own."""
    names = (QUEUE_NAME, BULK_QUEUE, WEBHOOK_QUEUE)
    if app.config.get("REDIS_URL"):
        try:
            return {name: int(_rq_queue(app, name).count) for name in names}
        except Exception as exc:
            log.warning("queue depth unknown: Redis did not answer (%s)", type(exc).__name__)
            return None
    executors = app.extensions[EXECUTORS]
    return {name: executors[name]._work_queue.qsize() for name in names}


def _rq_queue(app: Flask, name: str = QUEUE_NAME) -> Any:
    from redis import Redis
    from rq import Queue

    queues = app.extensions.setdefault("rq_queues", {})
    if name not in queues:
        # Short timeouts: a Redis that is down must not hold up the request that enqueues.
        connection = Redis.from_url(app.config["REDIS_URL"], socket_connect_timeout=2,
                                    socket_timeout=5)
        queues[name] = Queue(name, connection=connection)
    return queues[name]


class Sweeper:
    """A daemon thread that runs the sweep every `interval` seconds until stopped."""

    def __init__(self, app: Flask, interval: float) -> None:
        self.app, self.interval = app, interval
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="sweep", daemon=True)

    def start(self) -> Sweeper:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            _run(self.app, SWEEP_TASK, ())


def init_app(app: Flask) -> None:
    """In-process jobs: their threads, and the sweep thread started with the first request
    (not in tests)."""
    app.extensions[EXECUTORS] = {
        QUEUE_NAME: ThreadPoolExecutor(max_workers=4, thread_name_prefix="job"),
        BULK_QUEUE: ThreadPoolExecutor(max_workers=1, thread_name_prefix="bulk-job"),
        WEBHOOK_QUEUE: ThreadPoolExecutor(max_workers=WEBHOOK_THREADS,
                                          thread_name_prefix="webhook-job"),
    }
    app.extensions[_WAITING] = (set(), threading.Lock())
    if app.config.get("REDIS_URL") or app.testing:
        return
    lock = threading.Lock()

    def start_sweeper() -> None:
        if "sweeper" in app.extensions:
            return
        with lock:
            if "sweeper" not in app.extensions:
                interval = float(app.config.get("SWEEP_INTERVAL_SECONDS") or 5)
                app.extensions["sweeper"] = Sweeper(app, interval).start()

    app.before_request(start_sweeper)
