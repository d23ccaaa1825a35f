"""Idempotency-Key (decisions.md section 2)."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest

from tests.api.factories import template_body
from tests.conftest import Api, assert_error
from webapp import clock


def _count_templates(api: Api) -> int:
    return len(api.get("/v1/templates?limit=100").get_json()["data"])


def test_missing_key_is_400(api: Api) -> None:
    response = api.client.post("/v1/templates", json=template_body(),
                               headers={"Authorization": f"Bearer {api.key}"})
    assert_error(response, 400, "invalid_request_error", "idempotency_key_missing",
                 "Idempotency-Key")
    assert _count_templates(api) == 0


@pytest.mark.parametrize("key", ["", "x" * 256, "tab\there", "caf\u00e9"])
def test_invalid_key_is_400(api: Api, key: str) -> None:
    headers = {"Authorization": f"Bearer {api.key}", "Idempotency-Key": key}
    response = api.client.post("/v1/templates", json=template_body(), headers=headers)
    assert_error(response, 400, "invalid_request_error", "idempotency_key_invalid")


def test_key_of_255_characters_is_fine(api: Api) -> None:
    assert api.post("/v1/templates", template_body(), idem="k" * 255).status_code == 201


def test_delete_and_patch_need_a_key_too(api: Api) -> None:
    created = api.post("/v1/templates", template_body()).get_json()
    auth = {"Authorization": f"Bearer {api.key}"}
    for method in ("PATCH", "DELETE"):
        response = api.client.open(f"/v1/templates/{created['id']}", method=method,
                                   json={"expectedRevision": 1}, headers=auth)
        assert_error(response, 400, "invalid_request_error", "idempotency_key_missing")


def test_replay_returns_the_stored_answer_exactly(api: Api) -> None:
    first = api.post("/v1/templates", template_body(), idem="same")
    second = api.post("/v1/templates", template_body(), idem="same")
    assert first.status_code == second.status_code == 201
    assert first.get_data() == second.get_data()
    assert second.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert _count_templates(api) == 1


def test_replay_of_a_business_error_is_stored(api: Api) -> None:
    bad = template_body(name="")
    first = api.post("/v1/templates", bad, idem="bad-one")
    second = api.post("/v1/templates", bad, idem="bad-one")
    assert first.status_code == second.status_code == 400
    assert first.get_data() == second.get_data()
    assert second.headers["Idempotent-Replayed"] == "true"
    # The replayed error names the request that produced it, in body and header alike.
    assert second.get_json()["requestId"] == second.headers["Request-Id"]


def test_key_order_and_whitespace_do_not_change_the_fingerprint(api: Api) -> None:
    body = template_body()
    first = api.post("/v1/templates", body, idem="canon")
    reordered = dict(reversed(list(body.items())))
    second = api.request("POST", "/v1/templates", data=__import__("json").dumps(reordered,
                         indent=2), idem="canon", headers={"Content-Type": "application/json"})
    assert second.status_code == 201 and second.headers["Idempotent-Replayed"] == "true"
    assert first.get_data() == second.get_data()


def test_same_key_other_body_is_reused_error(api: Api) -> None:
    api.post("/v1/templates", template_body(name="A"), idem="reuse")
    response = api.post("/v1/templates", template_body(name="B"), idem="reuse")
    assert_error(response, 400, "idempotency_error", "idempotency_key_reused")
    assert _count_templates(api) == 1


def test_same_key_other_path_is_reused_error(api: Api) -> None:
    created = api.post("/v1/templates", template_body(), idem="path").get_json()
    response = api.post(f"/v1/templates/{created['id']}/duplicate", None, idem="path")
    assert_error(response, 400, "idempotency_error", "idempotency_key_reused")


def test_scope_is_organization_and_environment(api: Api, live_api: Api, other_api: Api) -> None:
    assert api.post("/v1/templates", template_body(), idem="shared").status_code == 201
    live = live_api.post("/v1/templates", template_body(), idem="shared")
    other = other_api.post("/v1/templates", template_body(), idem="shared")
    assert live.status_code == other.status_code == 201
    assert "Idempotent-Replayed" not in live.headers
    assert "Idempotent-Replayed" not in other.headers
    # Templates are shared by test and live: the organization now has two.
    assert _count_templates(api) == 2
    assert _count_templates(other_api) == 1


def test_server_errors_are_not_stored(app, api: Api) -> None:
    from webapp.services.templates import revisions

    original = revisions.create

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    revisions.create = broken
    try:
        assert api.post("/v1/templates", template_body(), idem="retry-me").status_code == 500
    finally:
        revisions.create = original
    again = api.post("/v1/templates", template_body(), idem="retry-me")
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again.headers


def test_records_expire_after_24_hours(app, api: Api) -> None:
    start = clock.now()
    clock.set_now(lambda: start)
    api.post("/v1/templates", template_body(), idem="old")
    clock.set_now(lambda: start + timedelta(hours=24, seconds=1))
    again = api.post("/v1/templates", template_body(name="Other"), idem="old")
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert _count_templates(api) == 2


def test_purge_removes_old_records(app, api: Api) -> None:
    from webapp.db import idempotency

    start = clock.now()
    clock.set_now(lambda: start)
    api.post("/v1/templates", template_body(), idem="purge-me")
    clock.set_now(lambda: start + timedelta(hours=25))
    with app.app_context():
        assert idempotency.purge() == 1


def _hold_inside_the_transaction(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event,
                                                                          threading.Event]:
    """Make `revisions.create` stop after its write, inside the request's open transaction,
    until released."""
    from webapp.services.templates import revisions

    original = revisions.create
    inside, release = threading.Event(), threading.Event()

    def held(*args, **kwargs):
        created = original(*args, **kwargs)
        inside.set()
        assert release.wait(30)
        return created

    monkeypatch.setattr(revisions, "create", held)
    return inside, release


def test_a_running_request_makes_its_key_409_then_its_answer_is_replayed(
        app, api: Api, org: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    inside, release = _hold_inside_the_transaction(monkeypatch)
    body = template_body()
    first: list = []
    thread = threading.Thread(target=lambda: first.append(app.test_client().post(
        "/v1/templates", json=body, headers={"Authorization": f"Bearer {org['keys']['test']}",
                                             "Idempotency-Key": "busy"})))
    thread.start()
    try:
        assert inside.wait(30)
        response = api.post("/v1/templates", body, idem="busy")
        assert_error(response, 409, "idempotency_error", "idempotency_key_in_use")
        # Another key is not held up by it (PostgreSQL: not even while it writes).
        other = api.client.get("/v1/templates", headers={"Authorization": f"Bearer {api.key}"})
        assert other.status_code == 200 and other.get_json()["data"] == []
    finally:
        release.set()
        thread.join(30)
    assert first[0].status_code == 201
    again = api.post("/v1/templates", body, idem="busy")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first[0].get_data()
    assert _count_templates(api) == 1


def test_a_replay_writes_nothing(
        app, api: Api, database: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.services.templates import revisions

    original, calls = revisions.create, []

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(revisions, "create", counted)
    first = api.post("/v1/templates", template_body(), idem="once")
    again = api.post("/v1/templates", template_body(), idem="once")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert len(calls) == 1  # the retry found the key's answer before its view ran
    assert _count_templates(api) == 1


def test_the_answer_is_stored_in_the_same_commit_as_the_change(
        app, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the answer cannot be stored, the change is not kept either (and a retry runs)."""
    from webapp.db import idempotency

    def cannot_store(*args: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(idempotency, "store", cannot_store)
    assert api.post("/v1/templates", template_body(), idem="atomic").status_code == 500
    monkeypatch.undo()
    assert _count_templates(api) == 0
    again = api.post("/v1/templates", template_body(), idem="atomic")
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert _count_templates(api) == 1


def test_a_server_error_after_the_write_rolls_the_write_back(
        app, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.api import templates as view
    from webapp.services.templates import revisions

    original = revisions.create

    def fails_after_writing(*args, **kwargs):
        original(*args, **kwargs)
        raise RuntimeError("boom")

    monkeypatch.setattr(view.revisions, "create", fails_after_writing)
    assert api.post("/v1/templates", template_body(), idem="undo").status_code == 500
    monkeypatch.undo()
    assert _count_templates(api) == 0
    assert api.post("/v1/templates", template_body(), idem="undo").status_code == 201


def test_a_returned_5xx_rolls_the_write_back_and_is_not_stored(
        app, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """A view may answer 5xx without raising (a wallet service down): the same as a raise."""
    from flask import Response

    from webapp.api import idempotency

    def answered_503(value):  # the view ran (the template is written), its answer is a 503
        real(value)
        return Response('{"error": {"type": "api_error"}}', status=503,
                        mimetype="application/json")

    real = idempotency.make_response
    monkeypatch.setattr(idempotency, "make_response", answered_503)
    first = api.post("/v1/templates", template_body(), idem="down")
    monkeypatch.undo()
    assert first.status_code == 503 and "Idempotent-Replayed" not in first.headers
    assert _count_templates(api) == 0
    again = api.post("/v1/templates", template_body(), idem="down")
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert _count_templates(api) == 1


def test_a_business_error_after_the_write_keeps_the_write_and_the_answer(
        app, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """As before the answer shared the transaction: a 4xx raised after a service's
    transaction ended does not undo it, and it is the stored answer."""
    from webapp.errors import Conflict
    from webapp.services.templates import revisions

    original = revisions.create

    def conflict_after_writing(*args, **kwargs):
        original(*args, **kwargs)
        raise Conflict("late", code="late_conflict")

    monkeypatch.setattr(revisions, "create", conflict_after_writing)
    first = api.post("/v1/templates", template_body(), idem="late")
    assert_error(first, 409, "conflict_error", "late_conflict")
    monkeypatch.undo()
    assert _count_templates(api) == 1
    again = api.post("/v1/templates", template_body(), idem="late")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()


def test_concurrent_retries_create_one_resource(app, org: dict) -> None:
    """The same request with the same key from 8 threads at once."""
    body = template_body()
    key = str(uuid.uuid4())
    barrier = threading.Barrier(8)
    results: list = []
    lock = threading.Lock()

    def fire() -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post("/v1/templates", json=body, headers={
            "Authorization": f"Bearer {org['keys']['test']}", "Idempotency-Key": key})
        with lock:
            results.append((response.status_code, response.get_data(),
                            response.headers.get("Idempotent-Replayed")))

    threads = [threading.Thread(target=fire) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == 8
    created = [r for r in results if r[0] == 201 and r[2] is None]
    replays = [r for r in results if r[0] == 201 and r[2] == "true"]
    in_use = [r for r in results if r[0] == 409]
    assert len(created) == 1
    assert len(created) + len(replays) + len(in_use) == 8
    assert all(r[1] == created[0][1] for r in replays)
    for _status, data, _ in in_use:
        assert b'"idempotency_key_in_use"' in data
    listing = app.test_client().get("/v1/templates", headers={
        "Authorization": f"Bearer {org['keys']['test']}"}).get_json()
    assert len(listing["data"]) == 1


def test_stored_answers_are_encrypted_at_rest(app, api) -> None:
    """A replayed answer may hold a secret shown once: the stored copy is not readable."""
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import IdempotencyRecord

    first = api.post("/v1/templates", {"name": "Secret-ish"}, idem="enc-1")
    with app.app_context():
        stored = db.session.scalar(select(IdempotencyRecord.body).where(
            IdempotencyRecord.key == "enc-1"))
    assert stored and "Secret-ish" not in stored and "requestId" not in stored
    again = api.post("/v1/templates", {"name": "Secret-ish"}, idem="enc-1")
    assert again.get_data() == first.get_data()
    assert again.headers["Idempotent-Replayed"] == "true"
