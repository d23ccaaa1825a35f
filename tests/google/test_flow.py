"""End to end against the fake Google, through the real google-auth path: issue -> class
and object inserted -> save link accepted -> callback received -> update delivered -> void.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle
from tests.support.plans import wide_reads


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    response = api.post("/v1/templates", template_body())
    assert response.status_code == 201
    return response.get_json()


def events(api: Api, type_: str) -> list[dict[str, Any]]:
    return list(api.get(f"/v1/events?type={type_}").get_json()["data"])


def save_via_page(api: Api, fake: FakeGoogle, p: dict[str, Any]) -> Any:
    response = api.client.get(f"/p/{p['shortId']}/google")
    assert response.status_code == 302, response.get_data(as_text=True)
    return fake.save(response.headers["Location"])


def test_end_to_end(app: Flask, api: Api, template: dict, fake_google: FakeGoogle,
                    served: str) -> None:
    p = issue(api, template, fieldValues={"member": "Ada", "level": "Gold"})
    obj_id, cls_id = f"{ISSUER}.{p['id']}", f"{ISSUER}.{template['id']}_r1"
    # issue: class and object inserted by the job, so the pass is ready at once
    assert p["artifacts"]["google"] == {"ready": True, "reason": None}
    assert fake_google.resource("genericClass", cls_id)["callbackOptions"] == {
        "url": "https://passes.example.test/wallet/google/callbacks"}
    assert fake_google.resource("genericObject", obj_id)["state"] == "ACTIVE"

    # save link accepted -> signed callback received -> pass.added_to_wallet
    saved = save_via_page(api, fake_google, p)
    assert saved.status_code == 200 and saved.json() == {"saved": [obj_id]}
    assert [c["status"] for c in fake_google.state.callbacks] == [200]
    added = events(api, "pass.added_to_wallet")
    assert len(added) == 1
    assert added[0]["data"]["object"]["id"] == p["id"]
    assert added[0]["data"]["wallet"] == {"platform": "google", "installations": 1}

    # update delivered with a notification
    body = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"level": "Platinum"},
                                               "notificationMode": "notify"}).get_json()
    update = api.get(f"/v1/pass-updates/{body['update']['id']}").get_json()
    assert update["delivery"]["google"] == {"status": "updated", "message": "Level: Platinum",
                                            "error": None}
    obj = fake_google.resource("genericObject", obj_id)
    assert {"id": "level", "header": "Level", "body": "Platinum"} in obj["textModulesData"]
    assert [m["messageType"] for m in obj["messages"]] == ["TEXT_AND_NOTIFY"]
    assert len(fake_google.state.notifications[obj_id]) == 1

    # void: INACTIVE, silently
    assert api.delete(f"/v1/passes/{p['id']}").status_code == 200
    voids = api.get(f"/v1/passes/{p['id']}/updates").get_json()["data"]
    assert voids[0]["kind"] == "void" and voids[0]["delivery"]["google"]["status"] == "updated"
    obj = fake_google.resource("genericObject", obj_id)
    assert obj["state"] == "INACTIVE" and len(obj["messages"]) == 1
    assert len(fake_google.state.notifications[obj_id]) == 1
    assert api.client.get(f"/p/{p['shortId']}/google").status_code == 410

    # removal -> del callback -> pass.removed_from_wallet
    assert fake_google.remove(obj_id).status_code == 200
    removed = events(api, "pass.removed_from_wallet")
    assert len(removed) == 1 and removed[0]["data"]["wallet"]["installations"] == 0


def test_class_written_once_per_revision_and_one_token(api: Api, template: dict,
                                                       fake_google: FakeGoogle) -> None:
    for name in ("A", "B", "C"):
        issue(api, template, fieldValues={"member": name})
    inserts = [c for c in fake_google.state.calls if c == ("POST", "genericClass/")]
    assert len(inserts) == 1
    assert sum(1 for c in fake_google.state.calls if c == ("POST", "genericObject/")) == 3
    assert fake_google.state.token_requests == 1  # the token is cached per issuer
    definition = template_body()["definition"]
    definition["description"] = "Gym membership v2"
    response = api.patch(f"/v1/templates/{template['id']}",
                         {"expectedRevision": 1, "definition": definition})
    assert response.status_code == 200
    issue(api, template, fieldValues={"member": "D"})
    assert fake_google.resource("genericClass", f"{ISSUER}.{template['id']}_r2") is not None


def test_class_that_exists_already_is_patched(app: Flask, api: Api, template: dict,
                                              fake_google: FakeGoogle) -> None:
    """A class left by an earlier installation (409 on insert) is patched, not a failure."""
    cls_id = f"{ISSUER}.{template['id']}_r1"
    fake_google.state.resources[("genericClass", cls_id)] = {"id": cls_id}
    p = issue(api, template, fieldValues={"member": "Ada"})
    assert p["artifacts"]["google"]["ready"] is True
    assert ("PATCH", f"genericClass/{cls_id}") in fake_google.state.calls
    assert "classTemplateInfo" in fake_google.resource("genericClass", cls_id)


def test_event_ticket_end_to_end(api: Api, fake_google: FakeGoogle, served: str) -> None:
    body = template_body("event", name="Concert")
    body["definition"]["platforms"] = {"apple": False, "google": True}
    t = api.post("/v1/templates", body).get_json()
    p = issue(api, t, fieldValues={"seat": "12A"}, barcodeValue="TICKET-1", holderName="Ada")
    obj_id = f"{ISSUER}.{p['id']}"
    cls = fake_google.resource("eventTicketClass", f"{ISSUER}.{t['id']}_r1")
    assert cls["reviewStatus"] == "APPROVED" and cls["issuerName"] == "Acme Live"
    obj = fake_google.resource("eventTicketObject", obj_id)
    assert obj["ticketHolderName"] == "Ada" and obj["barcode"]["value"] == "TICKET-1"
    saved = save_via_page(api, fake_google, p)
    assert saved.status_code == 200
    update = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"seat": "14C"},
                                                 "notificationMode": "notify"}).get_json()
    got = api.get(f"/v1/pass-updates/{update['update']['id']}").get_json()
    assert got["delivery"]["google"]["status"] == "updated"
    assert fake_google.state.field_notifications == [obj_id]  # notifyPreference was sent
    assert fake_google.resource("eventTicketObject", obj_id)["seatInfo"]["seat"][
        "defaultValue"]["value"] == "14C"
    assert "notifyPreference" not in fake_google.resource("eventTicketObject", obj_id)


def test_a_notified_update_reads_only_the_pass_s_notifications(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle, database: dict) -> None:
    """Reserving one of the pass's 3 notifications (and giving it back) reads the pass's own
    notifications, not every pass's (a campaign to a million passes writes a million)."""
    if database["kind"] != "sqlite":
        pytest.skip("SQLite's plans: PostgreSQL's planner chooses from its statistics")
    p = issue(api, template, fieldValues={"member": "Ada", "level": "Gold"})
    save_via_page(api, fake_google, p)

    def notify() -> None:
        body = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"level": "Platinum"},
                                                   "notificationMode": "notify"}).get_json()
        update = api.get(f"/v1/pass-updates/{body['update']['id']}").get_json()
        assert update["delivery"]["google"]["status"] == "updated"

    assert wide_reads(app, notify, allowed={"webhook_endpoints"}) == []
    assert len(fake_google.state.notifications[f"{ISSUER}.{p['id']}"]) == 1
    from webapp.extensions import db
    from webapp.models import PassUpdate
    from webapp.services.google import push

    with app.app_context():
        [record] = db.session.scalars(select(PassUpdate).where(
            PassUpdate.pass_id == p["id"], PassUpdate.kind == "update"))
        assert push.budget_left(p["id"]) == 2
        assert wide_reads(app, lambda: push._release(record.pass_id, record.id)) == []
        assert push.budget_left(p["id"]) == 3
