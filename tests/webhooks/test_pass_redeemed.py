"""`pass.redeemed` (issue 18): a check-in reaches a subscribed endpoint with the pass and the
redemption; an endpoint that did not subscribe gets nothing."""

from __future__ import annotations

import json

from tests.api.factories import template_body
from tests.conftest import Api
from tests.support.receiver import Receiver
from tests.webhooks.conftest import endpoint


def test_a_redemption_is_delivered_as_pass_redeemed(api: Api, receiver: Receiver) -> None:
    endpoint(api, receiver.url, ["pass.redeemed"])
    template = api.post("/v1/templates", template_body(
        redemption={"mode": "single"})).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}}).get_json()
    redemption = api.post(f"/v1/passes/{item['id']}/redemptions",
                          {"location": "Gate B"}).get_json()
    [received] = receiver.wait_for(1)
    event = json.loads(received.body)
    assert event["type"] == "pass.redeemed" and event["environment"] == "test"
    assert event["data"]["redemption"] == redemption
    assert event["data"]["object"]["id"] == item["id"]
    assert event["data"]["object"]["redemptionCount"] == 1
    assert received.headers["webhook-id"] == event["id"]


def test_an_endpoint_without_the_event_gets_no_redemption(api: Api, receiver: Receiver
                                                          ) -> None:
    endpoint(api, receiver.url, ["pass.created"])
    template = api.post("/v1/templates", template_body(
        redemption={"mode": "multiple"})).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}}).get_json()
    assert api.post(f"/v1/passes/{item['id']}/redemptions").status_code == 201
    [received] = receiver.wait_for(1)
    assert json.loads(received.body)["type"] == "pass.created"
    assert len(receiver.wait_for(1)) == 1
