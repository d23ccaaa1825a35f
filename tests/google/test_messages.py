"""A message on Google Wallet (issue 33): `addMessage` with `TEXT_AND_NOTIFY` while the
pass's 3 notifications per 24 hours last, then `TEXT` counted as without notification;
passes nobody saved are skipped as not in a wallet; Google's failures are counted."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    return api.post("/v1/templates", template_body()).get_json()


def saved_pass(api: Api, template: dict, fake_google: FakeGoogle) -> dict[str, Any]:
    p = issue(api, template, fieldValues={"member": "Ada"})
    location = api.client.get(f"/p/{p['shortId']}/google").headers["Location"]
    assert fake_google.save(location).status_code == 200
    return p


def send(api: Api, pass_ids: list[str], body: str = "Pool opens at 9.") -> dict[str, Any]:
    response = api.post("/v1/messages", {"header": "Summer", "body": body,
                                         "audience": {"passIds": pass_ids}})
    assert response.status_code == 202, response.get_data(as_text=True)
    return api.get(f"/v1/messages/{response.get_json()['id']}").get_json()


def test_message_notifies_within_the_budget_then_is_added_without(
        api: Api, template: dict, fake_google: FakeGoogle, served: str) -> None:
    p = saved_pass(api, template, fake_google)
    for n in range(3):
        got = send(api, [p["id"]], body=f"n{n}")
        assert got["delivery"]["google"] == {"delivered": 1, "withoutNotification": 0,
                                             "failed": 0, "skipped": 0, "pending": 0,
                                             "reasons": {}}
    fourth = send(api, [p["id"]], body="n3")
    assert fourth["delivery"]["google"] == {
        "delivered": 0, "withoutNotification": 1, "failed": 0, "skipped": 0, "pending": 0,
        "reasons": {"notification_quota_exceeded": 1}}
    messages = fake_google.resource("genericObject", f"{ISSUER}.{p['id']}")["messages"]
    assert [(m["header"], m["body"], m["messageType"]) for m in messages] == [
        ("Summer", "n0", "TEXT_AND_NOTIFY"), ("Summer", "n1", "TEXT_AND_NOTIFY"),
        ("Summer", "n2", "TEXT_AND_NOTIFY"), ("Summer", "n3", "TEXT")]
    [update] = api.get(f"/v1/passes/{p['id']}/updates?limit=1").get_json()["data"]
    assert update["delivery"]["google"]["message"] == "n3"
    assert update["delivery"]["google"]["error"]["code"] == "notification_quota_exceeded"


def test_unsaved_and_failing_passes_are_counted(api: Api, template: dict,
                                                fake_google: FakeGoogle, served: str) -> None:
    saved = saved_pass(api, template, fake_google)
    unsaved = issue(api, template, fieldValues={"member": "Bea"})
    no_google = issue(api, template, fieldValues={"member": "Cy"},
                      platforms={"apple": True, "google": False})
    got = send(api, [saved["id"], unsaved["id"], no_google["id"]])
    assert got["delivery"]["google"] == {
        "delivered": 1, "withoutNotification": 0, "failed": 0, "skipped": 2, "pending": 0,
        "reasons": {"not_in_wallet": 1, "not_issued_for_wallet": 1}}
    fake_google.fail("MESSAGE", "/walletobjects/v1/genericObject/", 400)
    failed = send(api, [saved["id"]])
    assert failed["delivery"]["google"]["failed"] == 1, failed["delivery"]
    assert failed["delivery"]["google"]["reasons"] == {"wallet_rejected": 1}


def test_event_ticket_message_notifies_once(api: Api, fake_google: FakeGoogle,
                                            served: str) -> None:
    body = template_body("event", name="Concert")
    body["definition"]["platforms"] = {"apple": False, "google": True}
    t = api.post("/v1/templates", body).get_json()
    p = issue(api, t, fieldValues={"seat": "12A"}, barcodeValue="TICKET-1")
    location = api.client.get(f"/p/{p['shortId']}/google").headers["Location"]
    assert fake_google.save(location).status_code == 200
    got = send(api, [p["id"]], body="Doors open at 8.")
    assert got["delivery"]["google"]["delivered"] == 1
    assert got["delivery"]["apple"]["reasons"] == {"not_issued_for_wallet": 1}
    obj_id = f"{ISSUER}.{p['id']}"
    # The message notifies by itself: no field-change notification on top.
    assert fake_google.state.field_notifications == []
    [message] = fake_google.resource("eventTicketObject", obj_id)["messages"]
    assert (message["body"], message["messageType"]) == ("Doors open at 8.", "TEXT_AND_NOTIFY")
