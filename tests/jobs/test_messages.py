"""Messages through the job system (issue 33): a large audience handed out in chunks by the
in-process jobs; runs of the job at once hand each pass the message once; a lost job is
resumed by the sweep; a scheduled message is sent at its time by a real RQ worker."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.jobs.conftest import WorkerProcess
from tests.jobs.test_bulk_resume import _wait
from webapp import clock


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.services.messages import sending

    monkeypatch.setattr(sending, "CHUNK_SIZE", 2)


def _passes(api: Api, count: int) -> tuple[dict[str, Any], list[str]]:
    template = api.post("/v1/templates", template_body(
        platforms={"apple": True, "google": False})).get_json()
    ids = []
    for n in range(count):
        response = api.post("/v1/passes", {"templateId": template["id"],
                                           "fieldValues": {"member": f"M{n}"}})
        assert response.status_code == 201
        ids.append(response.get_json()["id"])
    return template, ids


def _message(api: Api, message_id: str) -> dict[str, Any]:
    return dict(api.get(f"/v1/messages/{message_id}").get_json())


def _message_updates(app: Flask, message_id: str) -> list[str]:
    """The pass of each message update, one entry per update."""
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import PassUpdate

    with app.app_context():
        return sorted(db.session.scalars(select(PassUpdate.pass_id).where(
            PassUpdate.message_id == message_id)))


def _send(api: Api, template: dict[str, Any], **body: Any) -> dict[str, Any]:
    response = api.post("/v1/messages", {"header": "Hi", "body": "Doors open at 8.",
                                         "audience": {"templateId": template["id"]}, **body})
    assert response.status_code == 202, response.get_data(as_text=True)
    return dict(response.get_json())


def test_in_process_a_large_audience_goes_out_in_chunks(app: Flask, api: Api,
                                                        small_chunks: None) -> None:
    template, ids = _passes(api, 5)
    app.config.update(JOBS_SYNCHRONOUS=False)
    sent = _send(api, template)
    assert sent["status"] == "sending" and sent["audienceSize"] == 5
    _wait(lambda: _message(api, sent["id"])["delivery"]["apple"]["skipped"] == 5, timeout=30,
          every=0.05)  # handed out, and each pass's push done (no device: skipped)
    got = _message(api, sent["id"])
    assert got["status"] == "sent" and got["processed"] == 5
    assert _message_updates(app, sent["id"]) == sorted(ids)


def _lost_send(app: Flask, api: Api, template: dict[str, Any]) -> dict[str, Any]:
    """A message whose job never ran: the queue refused it (as when Redis is down)."""
    from jobs import queue

    app.config.update(JOBS_SYNCHRONOUS=False)
    bulk = app.extensions[queue.EXECUTORS][queue.BULK_QUEUE]
    bulk.shutdown(wait=True)  # submit now raises: `enqueue` logs it, the row stays
    try:
        sent = _send(api, template)
    finally:
        app.extensions[queue.EXECUTORS][queue.BULK_QUEUE] = ThreadPoolExecutor(max_workers=1)
        app.config.update(JOBS_SYNCHRONOUS=True)
    assert _message(api, sent["id"])["processed"] == 0
    return sent


def test_a_lost_job_is_resumed_by_the_sweep(app: Flask, api: Api, small_chunks: None) -> None:
    from webapp.services.outbox import sweep

    template, ids = _passes(api, 3)
    sent = _lost_send(app, api, template)
    with app.app_context():
        sweep.run()  # not stale yet: its job may still be coming
    assert _message(api, sent["id"])["status"] == "sending"
    later = clock.now() + timedelta(seconds=31)
    clock.set_now(lambda: later)
    with app.app_context():
        sweep.run()
    assert _message(api, sent["id"])["status"] == "sent"
    assert _message_updates(app, sent["id"]) == sorted(ids)


def test_runs_at_once_hand_each_pass_the_message_once(app: Flask, api: Api,
                                                      small_chunks: None) -> None:
    from webapp.services import messages

    template, ids = _passes(api, 7)
    sent = _lost_send(app, api, template)
    start = threading.Barrier(4)

    def run() -> None:
        with app.app_context():
            start.wait()
            messages.run(sent["id"])

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    got = _message(api, sent["id"])
    assert got["status"] == "sent" and got["processed"] == 7
    assert _message_updates(app, sent["id"]) == sorted(ids)


def test_rq_worker_sends_a_scheduled_message_at_its_time(
        app: Flask, api: Api, worker_env: dict[str, str], workers: list[WorkerProcess],
        tmp_path: Path) -> None:
    template, ids = _passes(api, 2)
    when = clock.now() + timedelta(seconds=3)
    sent = _send(api, template, sendAt=when.isoformat())
    assert sent["status"] == "scheduled"
    workers.append(WorkerProcess(worker_env, tmp_path / "worker.log").start())
    _wait(lambda: _message(api, sent["id"])["status"] == "sent", timeout=60, every=0.2)
    got = _message(api, sent["id"])
    assert got["startedAt"] >= clock.isoformat(when)
    assert _message_updates(app, sent["id"]) == sorted(ids)


def test_cancel_and_start_at_once_never_both_win(app: Flask, api: Api) -> None:
    template, ids = _passes(api, 2)
    for _ in range(5):
        sent = _send(api, template, sendAt=(clock.now() + timedelta(minutes=1)).isoformat())
        later = clock.now() + timedelta(minutes=2)
        clock.set_now(lambda later=later: later)  # its time has come
        canceled = _race(app, api, sent["id"])
        got = _message(api, sent["id"])
        updates = _message_updates(app, sent["id"])
        if canceled:
            assert got["status"] == "canceled" and updates == []
        else:
            assert got["status"] == "sent" and updates == sorted(ids)


def _race(app: Flask, api: Api, message_id: str) -> bool:
    """The job's start and a cancel at once; whether the cancel won (else it got 409)."""
    from webapp.errors import Conflict
    from webapp.services import messages
    from webapp.services.context import Context

    me = api.get("/v1/me").get_json()
    ctx = Context(organization_id=me["organizationId"], environment=me["environment"])
    start = threading.Barrier(2)
    outcome: list[bool] = []

    def run() -> None:
        with app.app_context():
            start.wait()
            messages.run(message_id)

    def cancel() -> None:
        with app.app_context():
            start.wait()
            try:
                messages.cancel(ctx, message_id)
                outcome.append(True)
            except Conflict:
                outcome.append(False)

    threads = [threading.Thread(target=run), threading.Thread(target=cancel)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    [won] = outcome
    return won
