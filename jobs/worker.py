"""`make worker`: an RQ worker with its scheduler, inside an app context, plus the sweep.

Jobs run in the worker process itself (no fork per job: jobs are short, IDs in, one
service call each, and this is several times faster). The main thread takes the `bulk` and
`default` queues in turn (a bulk job's chunk, then a push or an email, and so on);
`WEBHOOK_THREADS` threads take `webhooks`, so a receiver that takes its
time never holds up a wallet push or an email, nor (beyond its own thread) another
endpoint's deliveries. A thread runs the periodic sweep, which enqueues pending rows whose
job was lost. When Redis goes away the worker waits for it and starts again; only
SIGINT/SIGTERM end it.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
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
from rq.timeouts import TimerDeathPenalty
from rq.worker import DequeueStrategy

from jobs.queue import QUEUE_NAMES, WEBHOOK_QUEUE, WEBHOOK_THREADS, Sweeper, timed, unmark
from webapp import create_app, metrics

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
        unmark(self.connection, job.args, job.id)  # later work on its rows gets a job of its own
        with self.app.app_context(), timed((job.func_name or "").rsplit(".", 1)[-1]) as outcome:
            done = super().perform_job(job, queue, execution)
            if not done:
                outcome[0] = metrics.FAILED
            return done

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        type(self).stop_requested = True
        return super().request_stop(signum, frame)


class ThreadWorker(AppWorker):
    """An AppWorker in a thread of its own: no signal handlers (the main thread's decide), and
    job timeouts by a timer instead of SIGALRM, which only the main thread may use."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:
        return None


def main() -> int:
    metrics.init(worker=True)  # before the app: a web server's restart keeps these counts
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
    for n in range(WEBHOOK_THREADS):
        threading.Thread(target=_keep_working, args=(app, url, ThreadWorker, (WEBHOOK_QUEUE,)),
                         name=f"webhooks-{n}", daemon=True).start()
    try:
        _keep_working(app, url, AppWorker, QUEUE_NAMES, with_scheduler=True)
    finally:
        sweeper.stop()
    return 0


def _keep_working(app: Any, url: str, kind: type[AppWorker], queue_names: tuple[str, ...],
                  with_scheduler: bool = False) -> None:
    """Work the queues until a stop request, starting again whenever Redis comes back."""
    while not AppWorker.stop_requested:
        _work_once(app, url, kind, queue_names, with_scheduler)
        if not AppWorker.stop_requested:
            time.sleep(1)  # Redis went away: try again shortly


def _work_once(app: Any, url: str, kind: type[AppWorker], queue_names: tuple[str, ...],
               with_scheduler: bool) -> None:
    """One worker's life: until a stop request, or until Redis goes away."""
    try:
        connection = Redis.from_url(url, socket_connect_timeout=2)
        queues = [Queue(name, connection=connection) for name in queue_names]
        worker = kind(queues, connection=connection,
                      name=f"worker-{os.getpid()}-{time.monotonic_ns()}")
        worker.app = app
        # Round robin: a bulk job's next turn and a push or an email take turns.
        worker.work(with_scheduler=with_scheduler, dequeue_strategy=DequeueStrategy.ROUND_ROBIN,
                    logging_level=app.config.get("LOG_LEVEL", "INFO"))
    except (RedisConnectionError, RedisTimeoutError):
        log.warning("Redis is unavailable; the worker starts again when it is back")


if __name__ == "__main__":
    sys.exit(main())
