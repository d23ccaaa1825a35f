"""Issuing while the template changes: the two serialize, on SQLite and PostgreSQL.

An issue reads its template inside its write transaction (on PostgreSQL `FOR SHARE`), so an
archive or a new revision that arrives meanwhile waits for the issue's commit and comes
after it; the next issue sees the change.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import definition, template_body
from tests.conftest import Api, assert_error


@pytest.fixture
def template(app: Flask, api: Api) -> dict:
    from webapp.services.credentials import identities

    with app.app_context():  # (made at the first test pass otherwise, in its transaction)
        identities.ensure_demo_identities()
    response = api.post("/v1/templates", template_body())
    assert response.status_code == 201
    return response.get_json()


def _meanwhile(monkeypatch: pytest.MonkeyPatch, app: Flask, key: str,
               change: Callable[[Api], Any]) -> tuple[list[Any], threading.Thread]:
    """Start `change` from another client while the issue holds its transaction (it builds
    its answer), and check that it is still waiting half a second later."""
    from webapp.services.passes import views

    original, answers, started = views.attach, [], []

    def attach(*args: Any, **kwargs: Any) -> Any:
        if not started:
            other = Api(app.test_client(), key)
            thread = threading.Thread(target=lambda: answers.append(change(other)))
            started.append(thread)
            thread.start()
            time.sleep(0.5)
            assert answers == [], "the change did not wait for the issue's commit"
        return original(*args, **kwargs)

    monkeypatch.setattr(views, "attach", attach)
    return answers, started


def _finish(started: list[threading.Thread]) -> None:
    assert started, "the change never started"
    started[0].join(30)
    assert not started[0].is_alive()


def _count(api: Api) -> int:
    return len(api.get("/v1/passes").get_json()["data"])


def test_an_archive_meanwhile_comes_after_the_issue(app: Flask, api: Api, org: dict,
                                                    template: dict,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    answers, started = _meanwhile(monkeypatch, app, org["keys"]["test"],
                                  lambda other: other.delete(f"/v1/templates/{template['id']}"))
    body = {"templateId": template["id"], "fieldValues": {"member": "Ada"}}
    response = api.post("/v1/passes", body, idem="race-archive")
    _finish(started)
    assert response.status_code == 201
    assert answers[0].status_code == 200 and answers[0].get_json()["archived"] is True
    monkeypatch.undo()
    assert _count(api) == 1
    again = api.post("/v1/passes", body, idem="race-archive")  # a retry replays the 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == response.get_data()
    after = api.post("/v1/passes", body)  # a new issue sees the archive
    assert_error(after, 400, "invalid_request_error", "template_archived")
    assert _count(api) == 1


def test_a_new_revision_meanwhile_comes_after_the_issue(app: Flask, api: Api, org: dict,
                                                        template: dict,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    changed = definition(description="Changed")
    answers, started = _meanwhile(monkeypatch, app, org["keys"]["test"], lambda other: other.patch(
        f"/v1/templates/{template['id']}", {"expectedRevision": 1, "definition": changed}))
    body = {"templateId": template["id"], "fieldValues": {"member": "Ada"}}
    response = api.post("/v1/passes", body)
    _finish(started)
    assert response.status_code == 201 and response.get_json()["templateRevision"] == 1
    assert answers[0].status_code == 200 and answers[0].get_json()["revision"] == 2
    monkeypatch.undo()
    later = api.post("/v1/passes", body)
    assert later.status_code == 201 and later.get_json()["templateRevision"] == 2


def test_a_retry_of_an_issue_writes_nothing(api: Api, template: dict) -> None:
    body = {"templateId": template["id"], "fieldValues": {"member": "Ada"}}
    first = api.post("/v1/passes", body, idem="issue-once")
    again = api.post("/v1/passes", body, idem="issue-once")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert _count(api) == 1
    events = api.get("/v1/events").get_json()["data"]
    assert [e["type"] for e in events] == ["pass.created"]


def test_an_archive_waits_between_the_issue_s_template_read_and_its_insert(
        app: Flask, api: Api, org: dict, template: dict,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The service on its own (no request transaction around it): an archive that starts
    right after the issue read its template waits for the issue's commit."""
    from webapp.services.context import Context
    from webapp.services.passes import issuing

    original, answers, started = issuing._new_pass, [], []

    def read_then_archive(*args: Any, **kwargs: Any) -> Any:
        built = original(*args, **kwargs)  # the template is read now
        if not started:
            other = Api(app.test_client(), org["keys"]["test"])
            thread = threading.Thread(target=lambda: answers.append(
                other.delete(f"/v1/templates/{template['id']}")))
            started.append(thread)
            thread.start()
            time.sleep(0.5)
            assert answers == [], "the archive did not wait for the issue's commit"
        return built

    monkeypatch.setattr(issuing, "_new_pass", read_then_archive)
    with app.app_context():
        issued = issuing.issue(Context(org["id"], "test", actor="dashboard"),
                               issuing.IssueRequest(template_id=template["id"],
                                                    field_values={"member": "Ada"}))
    _finish(started)
    assert issued.status == "active"
    assert answers[0].status_code == 200 and answers[0].get_json()["archived"] is True
    assert _count(api) == 1
