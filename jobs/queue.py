"""`enqueue(task, *ids)`: RQ on Redis when `REDIS_URL` is set, else a thread in this process.

Bulk jobs go to a queue of their own (`bulk`; in-process, one thread of their own), which
workers take before the `default` queue of pushes, webhooks, emails and Google writes.

Task functions live in `jobs.tasks`, take IDs only and call one service function each.
The database is the source of truth: a job only says "look at this row now", so a job
that is lost is found again by the periodic sweep, and a job that runs twice does no harm.

The sweep (`jobs.tasks.sweep_pending`) runs every `SWEEP_INTERVAL_SECONDS`: in the RQ
worker when Redis is used (`jobs.worker`), else in a thread of the web process, started
with its first request. Tests (`TESTING`) run it by hand instead.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask, current_app

log = logging.getLogger("jobs.queue")

QUEUE_NAME = "default"
BULK_QUEUE = "bulk"
# Bulk jobs have a queue of their own, taken first: a job posted behind the pushes of an
# earlier job's 100,000 updates starts now, not once they are all out.
QUEUE_OF = {"run_bulk_job": BULK_QUEUE}
QUEUE_NAMES = (BULK_QUEUE, QUEUE_NAME)  # the order a worker takes them in
SWEEP_TASK = "sweep_pending"
EXECUTORS = "job_executors"  # app.extensions key: the threads of in-process jobs, by queue


def enqueue(task: str, *args: str, app: Flask | None = None) -> None:
    """Run `jobs.tasks.<task>(*args)` in the background; never raises (the sweep retries)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    queue = QUEUE_OF.get(task, QUEUE_NAME)
    try:
        if app.config.get("REDIS_URL"):
            _rq_queue(app, queue).enqueue(f"jobs.tasks.{task}", *args, result_ttl=0,
                                          failure_ttl=24 * 3600)
        elif app.config.get("JOBS_SYNCHRONOUS"):
            _run(app, task, args)
        else:
            app.extensions[EXECUTORS][queue].submit(_run, app, task, args)
    except Exception as exc:  # Redis down: the row stays pending and the sweep enqueues it
        log.warning("could not enqueue %s (%s); the sweep will pick it up", task,
                    type(exc).__name__)


def _run(app: Flask, task: str, args: tuple[str, ...]) -> Any:
    from jobs import tasks

    with app.app_context():
        try:
            return getattr(tasks, task)(*args)
        except Exception:
            log.exception("job %s failed", task)
            return None


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
    }
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
