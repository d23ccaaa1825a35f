"""Deliveries to a local receiver: signed per Standard Webhooks, payloads, at-least-once."""

from __future__ import annotations

import json

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from tests.conftest import Api
from tests.support.receiver import Receiver
from tests.webhooks.conftest import endpoint, issue

PASS_LIST_MEMBERS = {"object", "id", "shortId", "templateId", "templateName",
                     "templateRevision", "environment", "status", "source", "holderName",
                     "holderEmail", "platforms", "signing", "distributionUrl", "createdAt",
                     "updatedAt", "voidedAt", "erasedAt", "redemptionCount", "lastRedeemedAt",
                     "expiresAt", "relevantDate", "images", "balance", "lifetimePoints",
                     "tier", "tags"}


def test_pass_created_arrives_signed_and_verifies(api: Api, receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    created = issue(api)
    [request] = receiver.wait_for(1)
    assert request.headers["content-type"] == "application/json"
    assert request.headers["user-agent"].startswith("PassService-Webhooks/")
    payload = Webhook(hook["secret"]).verify(request.body, request.headers)
    assert payload["object"] == "event" and payload["type"] == "pass.created"
    assert request.headers["webhook-id"] == payload["id"] and payload["id"].startswith("evt_")
    assert payload["environment"] == "test"
    listed = api.get("/v1/passes").get_json()["data"][0]
    assert set(payload["data"]["object"]) == PASS_LIST_MEMBERS
    assert payload["data"]["object"] == listed
    assert payload["data"]["object"]["id"] == created["id"]
    event = api.get(f"/v1/events/{payload['id']}").get_json()
    assert event == payload  # the body is the event as the API shows it


def test_a_wrong_secret_or_a_changed_body_does_not_verify(api: Api, receiver: Receiver) -> None:
    endpoint(api, receiver.url)
    other = endpoint(api, receiver.url + "/other")
    issue(api)
    request = next(r for r in receiver.wait_for(2) if r.path == "/hooks")
    with pytest.raises(WebhookVerificationError):
        Webhook(other["secret"]).verify(request.body, request.headers)
    tampered = request.body.replace(b'"pass.created"', b'"pass.voided"')
    with pytest.raises(WebhookVerificationError):
        Webhook(other["secret"]).verify(tampered, request.headers)


def test_updated_voided_and_update_delivered_events(api: Api, receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url, ["pass.updated", "pass.voided"])
    created = issue(api)
    updated = api.patch(f"/v1/passes/{created['id']}",
                        {"fieldValues": {"level": "Gold"}}).get_json()
    api.delete(f"/v1/passes/{created['id']}")
    requests = receiver.wait_for(2)
    payloads = [Webhook(hook["secret"]).verify(r.body, r.headers) for r in requests]
    assert [p["type"] for p in payloads] == ["pass.updated", "pass.voided"]
    update = payloads[0]["data"]
    assert update["passUpdateId"] == updated["update"]["id"]
    assert update["changes"] == updated["update"]["changes"]["fields"]
    assert update["object"]["updatedAt"] == updated["pass"]["updatedAt"]
    assert payloads[1]["data"]["object"]["status"] == "voided"
    assert payloads[1]["data"]["object"]["voidedAt"] is not None


def test_only_subscribed_events_are_delivered(api: Api, receiver: Receiver) -> None:
    endpoint(api, receiver.url, ["pass.voided"])
    created = issue(api)
    api.patch(f"/v1/passes/{created['id']}", {"fieldValues": {"level": "Gold"}})
    assert receiver.requests == []
    api.delete(f"/v1/passes/{created['id']}")
    [request] = receiver.wait_for(1)
    assert json.loads(request.body)["type"] == "pass.voided"


def test_disabled_endpoints_get_nothing(api: Api, receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    api.patch(f"/v1/webhook-endpoints/{hook['id']}", {"status": "disabled"})
    issue(api)
    assert receiver.requests == []
    assert api.get(f"/v1/webhook-endpoints/{hook['id']}/deliveries").get_json()["data"] == []


def test_events_stay_in_their_environment_and_organization(api: Api, live_api: Api,
                                                           other_api: Api,
                                                           receiver: Receiver) -> None:
    endpoint(live_api, "https://hooks.example.com/live")
    endpoint(other_api, receiver.url + "/other")
    mine = endpoint(api, receiver.url)
    issue(api)
    [request] = receiver.wait_for(1)
    assert request.path == "/hooks"
    Webhook(mine["secret"]).verify(request.body, request.headers)
    assert live_api.get("/v1/events").get_json()["data"] == []
    assert other_api.get("/v1/events").get_json()["data"] == []


def test_a_rotated_secret_and_the_previous_one_both_sign(api: Api, receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    rotated = api.post(f"/v1/webhook-endpoints/{hook['id']}/rotate-secret").get_json()
    issue(api)
    [request] = receiver.wait_for(1)
    assert len(request.headers["webhook-signature"].split(" ")) == 2
    Webhook(hook["secret"]).verify(request.body, request.headers)
    Webhook(rotated["secret"]).verify(request.body, request.headers)


def test_rotation_with_no_overlap_drops_the_old_secret(api: Api, receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    rotated = api.post(f"/v1/webhook-endpoints/{hook['id']}/rotate-secret",
                       {"expiresInSeconds": 0}).get_json()
    issue(api)
    [request] = receiver.wait_for(1)
    Webhook(rotated["secret"]).verify(request.body, request.headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(hook["secret"]).verify(request.body, request.headers)


def test_delivery_log_lists_attempts(api: Api, receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    issue(api)
    receiver.wait_for(1)
    page = api.get(f"/v1/webhook-endpoints/{hook['id']}/deliveries").get_json()
    [delivery] = page["data"]
    assert delivery["object"] == "webhook_delivery" and delivery["id"].startswith("whdl_")
    assert delivery["status"] == "succeeded" and delivery["eventType"] == "pass.created"
    assert delivery["nextAttemptAt"] is None and delivery["failureCode"] is None
    [attempt] = delivery["attempts"]
    assert attempt["responseStatus"] == 200 and attempt["error"] is None
    assert attempt["durationMs"] >= 0
    one = api.get(f"/v1/webhook-endpoints/{hook['id']}/deliveries/{delivery['id']}").get_json()
    assert one == delivery
    assert api.get(f"/v1/webhook-endpoints/{hook['id']}/deliveries?status=failed"
                   ).get_json()["data"] == []


def test_delivery_list_loads_attempts_in_one_query(app, api: Api, receiver: Receiver) -> None:
    from sqlalchemy import event

    from webapp.extensions import db

    hook = endpoint(api, receiver.url)
    for member in ("Ada", "Bob", "Cy"):
        issue(api, member)
    receiver.wait_for(3)
    seen: list[str] = []

    def count(conn, cursor, statement, *args) -> None:  # type: ignore[no-untyped-def]
        if "webhook_attempts" in statement:
            seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        page = api.get(f"/v1/webhook-endpoints/{hook['id']}/deliveries").get_json()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert [len(d["attempts"]) for d in page["data"]] == [1, 1, 1]
    assert len(seen) == 1, seen


def test_resend_delivers_the_same_webhook_id_again(api: Api, receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    issue(api)
    [first] = receiver.wait_for(1)
    [delivery] = api.get(f"/v1/webhook-endpoints/{hook['id']}/deliveries").get_json()["data"]
    path = f"/v1/webhook-endpoints/{hook['id']}/deliveries/{delivery['id']}"
    response = api.post(f"{path}/resend")
    assert response.status_code == 200
    # The answer is the delivery as the resend left it; the job sends it after the commit.
    assert response.get_json()["status"] == "pending"
    assert len(response.get_json()["attempts"]) == 1
    second = receiver.wait_for(2)[1]
    sent = api.get(path).get_json()
    assert sent["status"] == "succeeded" and len(sent["attempts"]) == 2
    assert second.headers["webhook-id"] == first.headers["webhook-id"]
    Webhook(hook["secret"]).verify(second.body, second.headers)


def test_deleting_an_endpoint_deletes_its_deliveries_and_attempts(app, api: Api,
                                                                  receiver: Receiver) -> None:
    from sqlalchemy import func, select

    from webapp.extensions import db
    from webapp.models import WebhookAttempt, WebhookDelivery

    hook, kept = endpoint(api, receiver.url), endpoint(api, receiver.url + "/kept")
    issue(api)
    receiver.wait_for(2)
    assert api.delete(f"/v1/webhook-endpoints/{hook['id']}").status_code == 200
    with app.app_context():
        rows = db.session.execute(
            select(WebhookDelivery.endpoint_id, func.count(WebhookAttempt.id))
            .join(WebhookAttempt).group_by(WebhookDelivery.endpoint_id)).all()
    assert rows == [(kept["id"], 1)]  # the other endpoint's delivery and attempt stay
