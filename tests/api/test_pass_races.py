"""Issuing while the template changes (webapp/services/_tx.py: deferrable blocks).

An issue's rows wait for the request's commit. On SQLite the writers' lock is not held
while the pass and its answer are built; the template is read again under the lock, and
if it changed the request runs again with its writes in place. On PostgreSQL (read
committed) a change that commits meanwhile comes after the issue.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import definition, template_body
from tests.conftest import Api, assert_error


@pytest.fixture
def template(app: Flask, api: Api) -> dict:
    from webapp.services import credentials

    with app.app_context():  # (made at the first test pass otherwise, in its transaction)
        credentials.ensure_demo_identities()
    response = api.post("/v1/templates", template_body())
    assert response.status_code == 201
    return response.get_json()


def _meanwhile(monkeypatch: pytest.MonkeyPatch, app: Flask, key: str,
               change: Callable[[Api], Any]) -> list[Any]:
    """Run `change` once, from another client, after the issue built its rows and before
    its commit (the issue's answer is being made); what it answered."""
    from webapp.services import pass_views

    original, answers = pass_views.attach, []

    def attach(*args: Any, **kwargs: Any) -> Any:
        if not answers:
            other = Api(app.test_client(), key)
            thread = threading.Thread(target=lambda: answers.append(change(other)))
            thread.start()
            thread.join(30)
            assert answers, "the change did not finish"
        return original(*args, **kwargs)

    monkeypatch.setattr(pass_views, "attach", attach)
    return answers


def _count(api: Api) -> int:
    return len(api.get("/v1/passes").get_json()["data"])


def test_a_template_archived_meanwhile(app: Flask, api: Api, org: dict, template: dict,
                                       database: dict, monkeypatch: pytest.MonkeyPatch
                                       ) -> None:
    answers = _meanwhile(monkeypatch, app, org["keys"]["test"],
                         lambda other: other.delete(f"/v1/templates/{template['id']}"))
    body = {"templateId": template["id"], "fieldValues": {"member": "Ada"}}
    response = api.post("/v1/passes", body, idem="race-archive")
    assert answers[0].status_code == 200  # the archive went through at once
    monkeypatch.undo()
    again = api.post("/v1/passes", body, idem="race-archive")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == response.get_data()
    if database["kind"] == "sqlite":  # read again under the lock: ran again, archived
        assert_error(response, 400, "invalid_request_error", "template_archived")
        assert _count(api) == 0
    else:  # read committed: the issue came first
        assert response.status_code == 201
        assert _count(api) == 1


def test_a_new_revision_meanwhile(app: Flask, api: Api, org: dict, template: dict,
                                  database: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    changed = definition(description="Changed")
    _meanwhile(monkeypatch, app, org["keys"]["test"], lambda other: other.patch(
        f"/v1/templates/{template['id']}", {"expectedRevision": 1, "definition": changed}))
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"}})
    assert response.status_code == 201
    issued = response.get_json()
    # SQLite: ran again and took the latest revision; PostgreSQL: issued before the change.
    assert issued["templateRevision"] == (2 if database["kind"] == "sqlite" else 1)
    stored = api.get(f"/v1/passes/{issued['id']}").get_json()
    assert stored["templateRevision"] == issued["templateRevision"]
    assert _count(api) == 1


def test_an_unchanged_template_is_issued_once(app: Flask, api: Api, org: dict,
                                              template: dict,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Another template changing is no reason to run again."""
    other_template = api.post("/v1/templates", template_body(name="Other")).get_json()
    from webapp.services import passes

    runs: list[int] = []
    original = passes._new_pass

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(passes, "_new_pass", counted)
    _meanwhile(monkeypatch, app, org["keys"]["test"],
               lambda other: other.delete(f"/v1/templates/{other_template['id']}"))
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"}})
    assert response.status_code == 201 and runs == [1]


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
