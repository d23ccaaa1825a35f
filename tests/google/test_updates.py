"""Pass updates on Google: silent and notify modes, the 3-per-24-hours budget with its
TEXT fallback, not-saved passes, message pruning, voiding silently."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle
from webapp import clock


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    body = template_body()
    body["definition"]["config"]["fields"]["secondary"][0]["changeMessage"] = "Now %@!"
    return api.post("/v1/templates", body).get_json()


@pytest.fixture
def saved(api: Api, template: dict, fake_google: FakeGoogle, served: str) -> dict[str, Any]:
    p = issue(api, template, fieldValues={"member": "Ada", "level": "1"})
    location = api.client.get(f"/p/{p['shortId']}/google").headers["Location"]
    assert fake_google.save(location).status_code == 200
    return p


def update(api: Api, p: dict, mode: str = "notify", **values: Any) -> dict[str, Any]:
    response = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": values,
                                                   "notificationMode": mode})
    assert response.status_code == 200, response.get_data(as_text=True)
    return api.get(f"/v1/pass-updates/{response.get_json()['update']['id']}").get_json()


def test_silent_update_patches_without_a_message(api: Api, saved: dict,
                                                 fake_google: FakeGoogle) -> None:
    got = update(api, saved, "silent", member="Bea")
    assert got["delivery"]["google"] == {"status": "updated", "message": None, "error": None}
    obj = fake_google.resource("genericObject", f"{ISSUER}.{saved['id']}")
    assert obj["header"]["defaultValue"]["value"] == "Bea" and "messages" not in obj


def test_change_message_is_used_and_budget_falls_back_to_text(
        app: Flask, api: Api, saved: dict, fake_google: FakeGoogle) -> None:
    obj_id = f"{ISSUER}.{saved['id']}"
    for n in range(3):
        got = update(api, saved, level=str(n + 2))
        assert got["delivery"]["google"] == {"status": "updated", "message": f"Now {n + 2}!",
                                             "error": None}
    fourth = update(api, saved, level="9", member="Zed")
    assert fourth["delivery"]["google"]["status"] == "updated"
    assert fourth["delivery"]["google"]["message"] == "Member: Zed\nNow 9!"
    assert fourth["delivery"]["google"]["error"]["code"] == "notification_quota_exceeded"
    kinds = [m["messageType"] for m in fake_google.resource("genericObject", obj_id)["messages"]]
    assert kinds == ["TEXT_AND_NOTIFY"] * 3 + ["TEXT"]
    with app.app_context():
        from webapp.services.google import push

        assert push.budget_left(saved["id"]) == 0
        later = clock.now() + timedelta(hours=24, seconds=1)
    clock.set_now(lambda: later)
    with app.app_context():
        assert push.budget_left(saved["id"]) == 3


def test_googles_own_quota_answer_falls_back_to_text(api: Api, saved: dict,
                                                     fake_google: FakeGoogle) -> None:
    obj_id = f"{ISSUER}.{saved['id']}"
    fake_google.state.notifications[obj_id] = [__import__("time").time()] * 3
    got = update(api, saved, level="7")
    assert got["delivery"]["google"]["error"]["code"] == "notification_quota_exceeded"
    assert fake_google.resource("genericObject", obj_id)["messages"][-1]["messageType"] == "TEXT"


def test_not_saved_pass_gets_no_message_and_spends_no_budget(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle) -> None:
    p = issue(api, template, fieldValues={"member": "Ada"})
    got = update(api, p, level="2")
    assert got["delivery"]["google"] == {"status": "not_saved", "message": None, "error": None}
    assert "messages" not in fake_google.resource("genericObject", f"{ISSUER}.{p['id']}")
    with app.app_context():
        from webapp.services.google import push

        assert push.budget_left(p["id"]) == 3


def test_messages_are_pruned_to_ten(api: Api, saved: dict, fake_google: FakeGoogle) -> None:
    obj_id = f"{ISSUER}.{saved['id']}"
    old = [{"id": f"m{n}", "header": "h", "body": "b", "messageType": "TEXT"} for n in range(10)]
    fake_google.resource("genericObject", obj_id)["messages"] = old
    got = update(api, saved, level="5")
    assert got["delivery"]["google"]["status"] == "updated"
    messages = fake_google.resource("genericObject", obj_id)["messages"]
    assert len(messages) == 10 and messages[0]["id"] == "m1"
    assert messages[-1]["id"] == got["id"]


def test_void_is_silent_and_skips_the_budget(api: Api, saved: dict,
                                             fake_google: FakeGoogle) -> None:
    obj_id = f"{ISSUER}.{saved['id']}"
    assert api.delete(f"/v1/passes/{saved['id']}").status_code == 200
    record = api.get(f"/v1/passes/{saved['id']}/updates").get_json()["data"][0]
    assert record["delivery"]["google"] == {"status": "updated", "message": None, "error": None}
    obj = fake_google.resource("genericObject", obj_id)
    assert obj["state"] == "INACTIVE" and "messages" not in obj
    assert fake_google.state.notifications[obj_id] == []
    patch_bodies = [c for c in fake_google.state.calls if c[0] == "PATCH"]
    assert patch_bodies  # the void was a PATCH


def test_update_of_a_pass_not_for_google_is_skipped(api: Api, template: dict,
                                                    fake_google: FakeGoogle) -> None:
    p = issue(api, template, fieldValues={"member": "Ada"}, platforms={"google": False})
    got = update(api, p, level="2")
    assert got["delivery"]["google"]["status"] == "skipped"
    assert fake_google.state.calls == []


def test_each_google_step_is_counted_by_its_outcome(api: Api, saved: dict) -> None:
    from tests.support.metrics import grew, samples

    before = samples()
    assert update(api, saved, "silent", member="Bea")["delivery"]["google"]["status"] == \
        "updated"
    assert grew(before, "pass_service_google_pushes_total", outcome="updated") == 1
    assert grew(before, "pass_service_google_pushes_total", outcome="failed") == 0
