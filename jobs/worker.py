"""`make worker`: an RQ worker with its scheduler, inside an app context.

Each job runs in the app built once here; RQ forks a work horse per job, so the
inherited database pool is disposed in the child before it is used.
"""

from __future__ import annotations

import os
import sys

from redis import Redis
from rq import Queue, Worker

from jobs.queue import QUEUE_NAME
from webapp import create_app
from webapp.extensions import db


class AppWorker(Worker):
    """A worker whose work horses run jobs inside the app context."""

    def perform_job(self, job, queue):  # type: ignore[no-untyped-def]
        with self.app.app_context():
            db.engine.dispose(close=False)  # never share the parent's connections
            return super().perform_job(job, queue)


def main() -> int:
    app = create_app()
    url = app.config.get("REDIS_URL")
    if not url:
        sys.stderr.write("REDIS_URL is not set: jobs run inside the web process; "
                         "no worker is needed.\n")
        return 2
    connection = Redis.from_url(url)
    worker = AppWorker([Queue(QUEUE_NAME, connection=connection)], connection=connection,
                       name=f"worker-{os.getpid()}")
    worker.app = app
    worker.work(with_scheduler=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
