"""`make worker`: an RQ worker with its scheduler, inside an app context, plus the sweep.

Jobs run in the worker process itself (no fork per job: jobs are short, IDs in, one
service call each, and this is several times faster). A thread runs the periodic sweep,
which enqueues pending rows whose job was lost. When Redis goes away the worker waits for
it and starts again; only SIGINT/SIGTERM end it.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from types import FrameType
from typing import Any

from redis import Redis
from redis.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq import Queue, SimpleWorker
from rq.executions import Execution
from rq.job import Job

from jobs.queue import QUEUE_NAMES, Sweeper
from webapp import create_app

log = logging.getLogger("jobs.worker")


HEARTBEAT_EVERY = 5.0  # seconds between the worker's own heartbeats (its TTL is minutes)


class AppWorker(SimpleWorker):
    """A worker that runs each job inside the app context and remembers a stop request."""

    app: Any = None
    stop_requested = False
    _beat_at = float("-inf")

    def heartbeat(self, timeout: int | None = None, pipeline: Pipeline | None = None) -> None:
        """RQ beats three times around every job (three round trips each, a third of a short
        job's Redis round trips); beat at most every HEARTBEAT_EVERY s. Beats with a timeout
        or pipeline (job start, long jobs) always go through."""
        if timeout is None and pipeline is None:
            if time.monotonic() - self._beat_at < HEARTBEAT_EVERY:
                return
            self._beat_at = time.monotonic()
        super().heartbeat(timeout, pipeline)

    def perform_job(self, job: Job, queue: Queue, execution: Execution) -> bool:
        with self.app.app_context():
            return super().perform_job(job, queue, execution)

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        type(self).stop_requested = True
        return super().request_stop(signum, frame)


def main() -> int:
    app = create_app()
    url = app.config.get("REDIS_URL")
    if not url:
        sys.stderr.write("REDIS_URL is not set: jobs run inside the web process; "
                         "no worker is needed.\n")
        return 2
    logging.basicConfig(level=app.config.get("LOG_LEVEL", "INFO"))
    for chatty in ("httpx", "httpcore"):  # they log every URL, and a URL may hold a token
        logging.getLogger(chatty).setLevel(logging.WARNING)
    sweeper = Sweeper(app, float(app.config.get("SWEEP_INTERVAL_SECONDS") or 5)).start()
    try:
        while not AppWorker.stop_requested:
            _work_once(app, url)
            if not AppWorker.stop_requested:
                time.sleep(1)  # Redis went away: try again shortly
    finally:
        sweeper.stop()
    return 0


def _work_once(app: Any, url: str) -> None:
    """One worker's life: until a stop request, or until Redis goes away."""
    try:
        connection = Redis.from_url(url, socket_connect_timeout=2)
        queues = [Queue(name, connection=connection) for name in QUEUE_NAMES]
        worker = AppWorker(queues, connection=connection,
                           name=f"worker-{os.getpid()}-{time.monotonic_ns()}")
        worker.app = app
        worker.work(with_scheduler=True, logging_level=app.config.get("LOG_LEVEL", "INFO"))
    except (RedisConnectionError, RedisTimeoutError):
        log.warning("Redis is unavailable; the worker starts again when it is back")


if __name__ == "__main__":
    sys.exit(main())
