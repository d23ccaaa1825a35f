"""A message on Apple Wallet (issue 33): pushed over APNs (the fake), and the pass a device
then fetches has the message first on its back with a change message (the lock screen's
text), a new version and Last-Modified; the next silent change drops the change message."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.apple import validate
from tests.apple.conftest import DEMO_PASS_TYPE, Device, apns_overrides
from tests.conftest import Api

PHONE = "c" * 64


@pytest.fixture
def extra_overrides(fake_apns: Any) -> dict[str, Any]:
    return apns_overrides(fake_apns)


def back(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return doc["generic"].get("backFields", [])


def test_message_is_pushed_and_shown_on_the_back(api: Api, client: FlaskClient, fake_apns: Any,
                                                 item: dict, token: str) -> None:
    phone = Device(client, "phone-msg", PHONE)
    assert phone.register(DEMO_PASS_TYPE, item["id"], token).status_code == 201
    first = phone.fetch(DEMO_PASS_TYPE, item["id"], token)
    before = first.headers["Last-Modified"]
    tag = phone.serials(DEMO_PASS_TYPE).get_json()["lastUpdated"]
    response = api.post("/v1/messages", {"header": "100% summer", "body": "Pool opens at 9.",
                                         "audience": {"passIds": [item["id"]]}})
    assert response.status_code == 202, response.get_data(as_text=True)
    [push] = fake_apns.pushes_to(PHONE)
    assert push.body == b"{}"
    assert phone.serials(DEMO_PASS_TYPE, tag).get_json()["serialNumbers"] == [item["id"]]
    fetched = phone.fetch(DEMO_PASS_TYPE, item["id"], token, conditional=False)
    assert fetched.status_code == 200 and fetched.headers["Last-Modified"] != before
    assert validate.problems(fetched.get_data(), None) == []
    doc, _ = validate.read(fetched.get_data())
    assert back(doc)[0] == {
        "key": "pass.message", "label": "100% summer", "value": "Pool opens at 9.",
        "dataDetectorTypes": ["PKDataDetectorTypeLink", "PKDataDetectorTypePhoneNumber"],
        "changeMessage": "100%% summer: %@"}
    # No other field announces itself: only the message changed.
    assert [f["key"] for group in doc["generic"].values() for f in group
            if "changeMessage" in f] == ["pass.message"]
    got = api.get(f"/v1/messages/{response.get_json()['id']}").get_json()
    assert got["delivery"]["apple"] == {"delivered": 1, "withoutNotification": 0, "failed": 0,
                                        "skipped": 0, "pending": 0, "reasons": {}}
    # A later silent update keeps the message on the back, without a change message.
    assert api.patch(f"/v1/passes/{item['id']}", {"fieldValues": {"level": "Gold"}}
                     ).status_code == 200
    doc, _ = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())
    [shown] = [f for f in back(doc) if f["key"] == "pass.message"]
    assert "changeMessage" not in shown and shown["value"] == "Pool opens at 9."


def test_apns_failure_is_counted_with_its_reason(api: Api, client: FlaskClient, fake_apns: Any,
                                                 item: dict, token: str) -> None:
    Device(client, "phone-bad", PHONE).register(DEMO_PASS_TYPE, item["id"], token)
    fake_apns.answer(PHONE, (400, "TopicDisallowed"))
    sent = api.post("/v1/messages", {"header": "h", "body": "b",
                                     "audience": {"passIds": [item["id"]]}}).get_json()
    apple = api.get(f"/v1/messages/{sent['id']}").get_json()["delivery"]["apple"]
    assert apple["failed"] == 1 and apple["delivered"] == 0
    assert apple["reasons"] == {"apns_rejected": 1}
