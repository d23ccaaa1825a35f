"""`enqueue(task, *ids)`: RQ on Redis when `REDIS_URL` is set, else a thread in this process.

Task functions live in `jobs.tasks`, take IDs only and call one service function each.
The database is the source of truth: a job only says "look at this row now", so a job
that is lost is found again by the periodic sweep, and a job that runs twice does no harm.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask, current_app

log = logging.getLogger("jobs.queue")

QUEUE_NAME = "default"
_executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="job")


def enqueue(task: str, *args: str, app: Flask | None = None) -> None:
    """Run `jobs.tasks.<task>(*args)` in the background; never raises (the sweep retries)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    try:
        if app.config.get("REDIS_URL"):
            _rq_queue(app).enqueue(f"jobs.tasks.{task}", *args)
        elif app.config.get("JOBS_SYNCHRONOUS"):
            _run(app, task, args)
        else:
            _executor.submit(_run, app, task, args)
    except Exception:  # Redis down: the row stays pending and the sweep enqueues it again
        log.warning("could not enqueue %s; the sweep will pick it up", task, exc_info=True)


def _run(app: Flask, task: str, args: tuple[str, ...]) -> Any:
    from jobs import tasks

    with app.app_context():
        try:
            return getattr(tasks, task)(*args)
        except Exception:
            log.exception("job %s failed", task)
            return None


def _rq_queue(app: Flask) -> Any:
    from redis import Redis
    from rq import Queue

    queue = app.extensions.get("rq_queue")
    if queue is None:
        queue = Queue(QUEUE_NAME, connection=Redis.from_url(app.config["REDIS_URL"]))
        app.extensions["rq_queue"] = queue
    return queue
