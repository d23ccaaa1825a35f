"""Bulk jobs have a queue of their own, taken before the pushes' queue: a job posted behind
a backlog of pushes (an earlier job's 100,000 updates) starts at once.

- In process: the bulk thread runs the job while every thread of the default queue is busy.
- RQ: the job is on the `bulk` queue, and a real worker (`python -m jobs.worker`) takes it
  before a backlog on `default`.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.jobs.conftest import Redis, WorkerProcess
from tests.jobs.test_bulk_resume import _wait


def _post_job(api: Api, count: int = 3) -> dict[str, Any]:
    template = api.post("/v1/templates", template_body(
        platforms={"apple": True, "google": False})).get_json()
    response = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                          "items": [{"fieldValues": {"member": f"M{i}"}}
                                                    for i in range(count)]})
    assert response.status_code == 202, response.get_json()
    return dict(response.get_json())


def _status(api: Api, job: dict[str, Any]) -> str:
    return str(api.get(f"/v1/bulk-jobs/{job['id']}").get_json()["status"])


def test_in_process_a_bulk_job_runs_while_the_default_threads_are_busy(
        app: Flask, api: Api) -> None:
    from jobs import queue

    app.config.update(JOBS_SYNCHRONOUS=False)
    release = threading.Event()
    busy = app.extensions[queue.EXECUTORS][queue.QUEUE_NAME]
    blockers = [busy.submit(release.wait, 30) for _ in range(8)]  # every thread, and a queue
    try:
        job = _post_job(api)
        _wait(lambda: _status(api, job) == "completed", timeout=30, every=0.05)
        assert not any(b.done() for b in blockers)  # the pushes' threads were busy throughout
    finally:
        release.set()


def test_rq_a_bulk_job_is_taken_before_a_backlog_of_pushes(
        app: Flask, api: Api, redis: Redis, worker_env: dict[str, str],
        workers: list[WorkerProcess], tmp_path: Path) -> None:
    from redis import Redis as Client
    from rq import Queue

    connection = Client.from_url(redis.url)
    backlog = Queue("default", connection=connection)
    with connection.pipeline() as pipe:  # 400 jobs of 50 ms: 20 s of work ahead of the job
        for _ in range(400):
            backlog.enqueue("time.sleep", 0.05, result_ttl=0, pipeline=pipe)
        pipe.execute()
    job = _post_job(api)
    assert [j.func_name for j in Queue("bulk", connection=connection).get_jobs()] == [
        "jobs.tasks.run_bulk_job"]
    workers.append(WorkerProcess(worker_env, tmp_path / "worker.log").start())
    _wait(lambda: _status(api, job) == "completed", timeout=60, every=0.05)
    assert backlog.count > 300, backlog.count  # it did not wait for the pushes


@pytest.mark.parametrize("task, name", [("run_bulk_job", "bulk"),
                                        ("deliver_pass_updates", "default"),
                                        ("send_pass_email", "default"),
                                        ("deliver_webhooks", "webhooks"),
                                        ("deliver_webhook", "webhooks")])
def test_each_task_has_its_queue(task: str, name: str) -> None:
    from jobs import queue

    assert queue.QUEUE_OF.get(task, queue.QUEUE_NAME) == name
    assert queue.QUEUE_NAMES == ("bulk", "default")  # a worker takes bulk jobs first
