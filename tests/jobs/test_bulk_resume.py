"""Bulk jobs that lose their worker: the sweep hands them over again.

- In process: a job whose enqueue was lost, and a job whose worker's lease ran out, are
  found by the sweep and completed; a job whose lease still runs is left alone.
- A worker SIGKILLed mid-job: another worker resumes it, and every item is applied exactly
  once (real Redis, real `python -m jobs.worker` processes).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.jobs.conftest import Redis, WorkerProcess
from webapp import clock
from webapp.db.transaction import DISPATCHER

ITEMS = 6000


def _wait(predicate: Callable[[], bool], timeout: float = 120.0, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(every)


def _state(app: Flask, template_id: str) -> dict[str, Any]:
    """The job's counts and the passes of the template, read from the database."""
    from sqlalchemy import func, select

    from webapp.extensions import db
    from webapp.models import BulkJob, BulkJobItem, Pass

    with app.app_context():
        job = db.session.scalars(select(BulkJob)).one()
        members = [values["member"] for values in db.session.scalars(
            select(Pass.field_values).where(Pass.template_id == template_id))]
        items = dict(db.session.execute(
            select(BulkJobItem.status, func.count()).group_by(BulkJobItem.status)).all())
        pass_ids = list(db.session.scalars(select(BulkJobItem.pass_id)
                                           .where(BulkJobItem.pass_id.is_not(None))))
        state = {"status": job.status, "succeeded": job.succeeded, "failed": job.failed,
                 "members": members, "items": items, "pass_ids": pass_ids}
        db.session.rollback()
        return state


def _job(api: Api, app: Flask, count: int = 3) -> tuple[dict[str, Any], str]:
    """A queued issue job whose enqueue was lost, and its template's ID."""
    from jobs import queue

    template = api.post("/v1/templates", template_body()).get_json()
    app.extensions[DISPATCHER] = lambda task, *row_ids: None
    response = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                          "items": [{"fieldValues": {"member": f"M{i}"}}
                                                    for i in range(count)]})
    assert response.status_code == 202
    app.extensions[DISPATCHER] = queue.enqueue
    return response.get_json(), template["id"]


def _sweep(app: Flask) -> int:
    from webapp.services.outbox import sweep

    with app.app_context():
        return sweep.run()


def _status(api: Api, job: dict[str, Any]) -> str:
    return str(api.get(f"/v1/bulk-jobs/{job['id']}").get_json()["status"])


@pytest.fixture
def inline(app: Flask) -> Iterator[None]:
    app.config.update(JOBS_SYNCHRONOUS=True)
    yield
    clock.set_now(None)


def test_a_job_whose_enqueue_was_lost_is_found_by_the_sweep(
        app: Flask, api: Api, inline: None) -> None:
    job, template_id = _job(api, app)
    _sweep(app)
    assert _status(api, job) == "queued"  # it may still be on its way: give it its time
    later = datetime.now(UTC) + timedelta(seconds=app.config["SWEEP_STALE_SECONDS"] + 1)
    clock.set_now(lambda: later)
    _sweep(app)
    assert _status(api, job) == "completed"
    assert len(_state(app, template_id)["members"]) == 3


def test_a_running_job_is_taken_over_once_its_lease_has_run_out(
        app: Flask, api: Api, inline: None) -> None:
    from webapp.db.transaction import transaction
    from webapp.models import BulkJob

    job, template_id = _job(api, app)
    lease_ends = datetime.now(UTC) + timedelta(seconds=60)
    with app.app_context(), transaction() as session:  # a worker holds it, or held it
        row = session.get(BulkJob, job["id"])
        assert row is not None
        row.status, row.lease_until = "running", lease_ends
    clock.set_now(lambda: lease_ends - timedelta(seconds=1))
    _sweep(app)
    assert _status(api, job) == "running"  # its worker may be alive
    clock.set_now(lambda: lease_ends + timedelta(seconds=1))
    _sweep(app)
    assert _status(api, job) == "completed"
    assert len(_state(app, template_id)["members"]) == 3


@pytest.mark.slow
def test_a_killed_worker_is_resumed_and_no_item_is_applied_twice(
        app: Flask, api: Api, redis: Redis, worker_env: dict[str, str],
        workers: list[WorkerProcess], tmp_path: Path) -> None:
    template = api.post("/v1/templates", template_body(
        platforms={"apple": True, "google": False})).get_json()
    items = [{"fieldValues": {"member": f"M{i}"}} for i in range(ITEMS)]
    response = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                          "items": items})
    assert response.status_code == 202, response.get_json()

    first = WorkerProcess(worker_env, tmp_path / "first.log").start()
    workers.append(first)
    # Once the first chunk has committed the worker is inside the next one: kill it there.
    _wait(lambda: _state(app, template["id"])["succeeded"] > 0, every=0.02)
    first.kill()
    killed = _state(app, template["id"])
    assert killed["status"] == "running"
    assert 0 < killed["succeeded"] < ITEMS
    # Only whole chunks were applied, each with its items marked: nothing half done.
    assert killed["succeeded"] % 500 == 0
    assert len(killed["members"]) == killed["succeeded"]
    assert killed["items"]["pending"] == ITEMS - killed["succeeded"]

    # A new worker: its sweep finds the job once the dead worker's lease has run out.
    workers.append(WorkerProcess(worker_env, tmp_path / "second.log").start())
    _wait(lambda: _state(app, template["id"])["status"] == "completed")
    done = _state(app, template["id"])
    assert done["succeeded"] == ITEMS and done["failed"] == 0
    assert done["items"] == {"succeeded": ITEMS}
    assert sorted(done["members"]) == sorted(f"M{i}" for i in range(ITEMS))  # once each
    assert len(set(done["pass_ids"])) == ITEMS
    body = api.get("/v1/bulk-jobs").get_json()["data"][0]
    assert body["counts"] == {"total": ITEMS, "succeeded": ITEMS, "failed": 0, "canceled": 0,
                              "pending": 0}
