"""Messages to pass holders (issue 33): POST /v1/messages with its checks, audiences by IDs
or by the passes list's filters, per-tenant scoping, idempotent replays, scheduling and
cancelling, the list with cursors, counts per wallet and the `message.sent` event."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from tests.api import test_tags
from tests.api.factories import template_body
from tests.conftest import Api, assert_error
from webapp import clock

# The tag tests' fixtures and issuing helper: jobs run inline, a generic template.
_inline_jobs, template, issue = test_tags._inline_jobs, test_tags.template, test_tags.issue


def send(api: Api, audience: dict[str, Any], status: int = 202, **body: Any) -> dict[str, Any]:
    response = api.post("/v1/messages", {"header": "Summer sale", "body": "20% off today.",
                                         "audience": audience, **body})
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def test_message_to_pass_ids_is_sent_and_counted(api: Api, template: dict[str, Any]) -> None:
    one, two = issue(api, template), issue(api, template)
    voided = issue(api, template)
    assert api.delete(f"/v1/passes/{voided['id']}").status_code == 200
    sent = send(api, {"passIds": [one["id"], two["id"], voided["id"], one["id"]]})
    assert sent["object"] == "message" and sent["id"].startswith("msg_")
    assert sent["status"] == "sending" and sent["sendAt"] is None
    assert sent["audience"] == {"passIds": [one["id"], two["id"], voided["id"]]}
    assert sent["audienceSize"] == 3
    got = api.get(f"/v1/messages/{sent['id']}").get_json()
    assert got["status"] == "sent" and got["processed"] == 3 and got["finishedAt"]
    # Test passes: no Apple device registered, no Google service account: nobody has them.
    assert got["delivery"]["apple"] == {
        "delivered": 0, "withoutNotification": 0, "failed": 0, "skipped": 3, "pending": 0,
        "reasons": {"not_in_wallet": 2, "pass_voided": 1}}
    google = got["delivery"]["google"]
    assert google["skipped"] + google["failed"] == 3 and google["pending"] == 0
    assert google["reasons"]["pass_voided"] == 1
    shown = api.get(f"/v1/passes/{one['id']}").get_json()
    assert shown["walletUpdatedAt"] > one["walletUpdatedAt"]
    [update] = api.get(f"/v1/passes/{one['id']}/updates").get_json()["data"][:1]
    assert update["kind"] == "message" and update["notificationMode"] == "notify"
    assert update["messageId"] == sent["id"]
    assert update["changes"]["fields"] == [{"key": "pass.message", "label": "Summer sale",
                                            "from": None, "to": "20% off today."}]


def test_filter_audience_combines_like_the_passes_list(api: Api, template: dict[str, Any]
                                                       ) -> None:
    other = api.post("/v1/templates", template_body(name="Other")).get_json()
    vip = issue(api, template, tags=["vip"], holderName="Zoe Quill")
    issue(api, template, tags=["vip"], holderName="Bob Stone")
    issue(api, template, holderName="Zoe Plain")
    issue(api, other, tags=["vip"], holderName="Zoe Other")
    sent = send(api, {"templateId": template["id"], "tag": "VIP", "search": "zoe"})
    assert sent["audience"] == {"templateId": template["id"], "tag": "vip", "search": "zoe"}
    assert sent["audienceSize"] == 1
    assert api.get(f"/v1/passes/{vip['id']}/updates").get_json()["data"][0]["kind"] == \
        "message"
    assert send(api, {"tag": "vip"})["audienceSize"] == 3
    assert send(api, {"templateId": template["id"]})["audienceSize"] == 3


@pytest.mark.parametrize(("body", "code", "param"), [
    ({"header": "", "body": "x"}, "parameter_invalid", "header"),
    ({"header": "   ", "body": "x"}, "parameter_invalid", "header"),
    ({"header": "h" * 36, "body": "x"}, "message_too_long", "header"),
    ({"header": "h", "body": "b" * 501}, "message_too_long", "body"),
    ({"header": "h", "body": "bad \u0007 bell"}, "parameter_invalid", "body"),
    ({"header": 5, "body": "x"}, "parameter_invalid", "header"),
    ({"body": "x"}, "parameter_missing", "header"),
    ({"header": "h"}, "parameter_missing", "body"),
    ({"header": "h", "body": "x", "color": "red"}, "parameter_unknown", "color"),
    ({"header": "h", "body": "x", "sendAt": "tomorrow"}, "parameter_invalid", "sendAt"),
    ({"header": "h", "body": "x", "sendAt": "2027-01-01T10:00:00"}, "parameter_invalid",
     "sendAt"),
    ({"header": "h", "body": "x", "sendAt": 12}, "parameter_invalid", "sendAt"),
])
def test_bad_text_and_send_times_are_refused(api: Api, template: dict[str, Any],
                                             body: dict[str, Any], code: str, param: str
                                             ) -> None:
    one = issue(api, template)
    response = api.post("/v1/messages", {"audience": {"passIds": [one["id"]]}, **body})
    assert_error(response, 400, "invalid_request_error", code, param)


def test_limits_are_the_wallets(api: Api, template: dict[str, Any]) -> None:
    one = issue(api, template)
    sent = send(api, {"passIds": [one["id"]]}, header="h" * 35, body="é" * 500)
    assert len(sent["header"]) == 35 and len(sent["body"]) == 500


@pytest.mark.parametrize(("audience", "code", "param"), [
    ({}, "audience_invalid", "audience"),
    ({"search": "   "}, "audience_invalid", "audience"),
    ({"passIds": []}, "parameter_invalid", "audience.passIds"),
    ({"passIds": "pass_1"}, "parameter_invalid", "audience.passIds"),
    ({"passIds": [7]}, "parameter_invalid", "audience.passIds.0"),
    ({"passIds": ["pass_x"] * 1001}, "parameter_invalid", "audience.passIds"),
    ({"passIds": ["pass_x"], "tag": "vip"}, "audience_invalid", "audience.tag"),
    ({"tag": "a b"}, "tag_invalid", "audience.tag"),
    ({"tag": "a" * 41}, "tag_too_long", "audience.tag"),
    ({"tag": 3}, "parameter_invalid", "audience.tag"),
    ({"templateId": None}, "parameter_invalid", "audience.templateId"),
    ({"everyone": True}, "parameter_unknown", "audience.everyone"),
])
def test_bad_audiences_are_refused(api: Api, audience: dict[str, Any], code: str, param: str
                                   ) -> None:
    response = api.post("/v1/messages", {"header": "h", "body": "b", "audience": audience})
    assert_error(response, 400, "invalid_request_error", code, param)


def test_audience_is_missing_or_not_an_object(api: Api) -> None:
    assert_error(api.post("/v1/messages", {"header": "h", "body": "b"}), 400,
                 "invalid_request_error", "parameter_missing", "audience")
    assert_error(api.post("/v1/messages", {"header": "h", "body": "b", "audience": []}), 400,
                 "invalid_request_error", "parameter_invalid", "audience")


def test_other_tenants_and_environments_passes_and_templates_are_404(
        api: Api, live_api: Api, other_api: Api, template: dict[str, Any]) -> None:
    mine = issue(api, template)
    for client in (live_api, other_api):
        response = client.post("/v1/messages", {"header": "h", "body": "b",
                                                "audience": {"passIds": [mine["id"]]}})
        assert_error(response, 404, "not_found_error", param="audience.passIds.0")
    response = other_api.post("/v1/messages", {"header": "h", "body": "b",
                                               "audience": {"templateId": template["id"]}})
    assert_error(response, 404, "not_found_error")
    # The live environment has none of the test passes: an audience of nobody is fine.
    assert send(live_api, {"templateId": template["id"]})["audienceSize"] == 0
    sent = send(api, {"passIds": [mine["id"]]})
    for client in (live_api, other_api):
        assert_error(client.get(f"/v1/messages/{sent['id']}"), 404, "not_found_error")
        assert client.get("/v1/messages").get_json()["data"] == [] or client is live_api
        assert_error(client.post(f"/v1/messages/{sent['id']}/cancel"), 404, "not_found_error")
    assert_error(api.get("/v1/messages/msg_nope"), 404, "not_found_error")
    assert_error(api.get("/v1/messages/pass_nope"), 404, "not_found_error")


def test_replayed_idempotency_key_sends_once(app: Flask, api: Api, template: dict[str, Any]
                                            ) -> None:
    one = issue(api, template)
    body = {"header": "h", "body": "b", "audience": {"passIds": [one["id"]]}}
    first = api.post("/v1/messages", body, idem="msg-key-1")
    again = api.post("/v1/messages", body, idem="msg-key-1")
    assert first.status_code == again.status_code == 202
    assert again.get_data() == first.get_data()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(api.get("/v1/messages").get_json()["data"]) == 1
    updates = api.get(f"/v1/passes/{one['id']}/updates").get_json()["data"]
    assert [u["kind"] for u in updates] == ["message"]
    other = api.post("/v1/messages", {**body, "body": "other"}, idem="msg-key-1")
    assert_error(other, 400, "idempotency_error")


def test_scheduled_message_waits_for_its_time_and_the_sweep(app: Flask, api: Api,
                                                            template: dict[str, Any]) -> None:
    one = issue(api, template)
    when = clock.now() + timedelta(hours=2)
    sent = send(api, {"passIds": [one["id"]]}, sendAt=when.isoformat())
    assert sent["status"] == "scheduled" and sent["startedAt"] is None
    assert sent["sendAt"] == clock.isoformat(when)
    assert sent["delivery"]["apple"]["pending"] == 1
    from webapp.services.outbox import sweep

    with app.app_context():
        sweep.run()
    assert api.get(f"/v1/messages/{sent['id']}").get_json()["status"] == "scheduled"
    later = when + timedelta(seconds=1)
    clock.set_now(lambda: later)
    with app.app_context():
        sweep.run()
    got = api.get(f"/v1/messages/{sent['id']}").get_json()
    assert got["status"] == "sent" and got["startedAt"] == clock.isoformat(later)
    assert got["delivery"]["apple"]["reasons"] == {"not_in_wallet": 1}


def test_send_times_in_the_past_or_too_far_are_refused(api: Api, template: dict[str, Any]
                                                       ) -> None:
    one = issue(api, template)
    audience = {"passIds": [one["id"]]}
    past = (clock.now() - timedelta(minutes=6)).isoformat()
    far = (clock.now() + timedelta(days=91)).isoformat()
    for send_at, code in ((past, "send_at_in_past"), (far, "send_at_too_far")):
        response = api.post("/v1/messages", {"header": "h", "body": "b", "audience": audience,
                                             "sendAt": send_at})
        assert_error(response, 400, "invalid_request_error", code, "sendAt")
    # A minute ago is now (clocks differ): sent at once.
    recent = send(api, audience, sendAt=(clock.now() - timedelta(minutes=1)).isoformat())
    assert recent["status"] == "sending"


def test_cancel_a_scheduled_message_only(app: Flask, api: Api, template: dict[str, Any]
                                        ) -> None:
    one = issue(api, template)
    when = clock.now() + timedelta(hours=1)
    sent = send(api, {"passIds": [one["id"]]}, sendAt=when.isoformat())
    canceled = api.post(f"/v1/messages/{sent['id']}/cancel")
    assert canceled.status_code == 200, canceled.get_data(as_text=True)
    assert canceled.get_json()["status"] == "canceled" and canceled.get_json()["canceledAt"]
    assert canceled.get_json()["delivery"]["apple"]["pending"] == 0
    assert_error(api.post(f"/v1/messages/{sent['id']}/cancel"), 409, "conflict_error",
                 "message_not_scheduled")
    later = when + timedelta(seconds=1)
    clock.set_now(lambda: later)
    from webapp.services.outbox import sweep

    with app.app_context():
        sweep.run()
    assert api.get(f"/v1/messages/{sent['id']}").get_json()["status"] == "canceled"
    assert api.get(f"/v1/passes/{one['id']}/updates").get_json()["data"] == []
    now = send(api, {"passIds": [one["id"]]})
    assert_error(api.post(f"/v1/messages/{now['id']}/cancel"), 409, "conflict_error",
                 "message_not_scheduled")


def test_list_pages_newest_first_and_filters_status(api: Api, template: dict[str, Any]
                                                    ) -> None:
    one = issue(api, template)
    made = [send(api, {"passIds": [one["id"]]}, body=f"n{i}")["id"] for i in range(3)]
    later = send(api, {"passIds": [one["id"]]},
                 sendAt=(clock.now() + timedelta(days=1)).isoformat())["id"]
    page = api.get("/v1/messages?limit=2").get_json()
    assert [m["id"] for m in page["data"]] == [later, made[2]] and page["hasMore"]
    rest = api.get(f"/v1/messages?limit=2&cursor={page['nextCursor']}").get_json()
    assert [m["id"] for m in rest["data"]] == [made[1], made[0]] and not rest["hasMore"]
    assert [m["id"] for m in api.get("/v1/messages?status=scheduled").get_json()["data"]] == \
        [later]
    assert rest["data"][0]["delivery"]["apple"]["skipped"] == 1
    assert_error(api.get("/v1/messages?status=late"), 400, "invalid_request_error",
                 param="status")
    assert_error(api.get("/v1/messages?cursor=msg_nope"), 400, "invalid_request_error",
                 "invalid_cursor", "cursor")
    assert_error(api.get("/v1/messages?limit=0"), 400, "invalid_request_error", param="limit")


def test_message_sent_event_carries_the_message(api: Api, template: dict[str, Any]) -> None:
    one = issue(api, template)
    sent = send(api, {"passIds": [one["id"]]})
    [event] = api.get("/v1/events?type=message.sent").get_json()["data"]
    assert event["data"]["object"]["id"] == sent["id"]
    assert event["data"]["object"]["status"] == "sent"
    assert event["data"]["object"]["processed"] == 1


def test_openapi_documents_the_operations_and_answers_match(client: Any, api: Api,
                                                            template: dict[str, Any]) -> None:
    from jsonschema import Draft202012Validator

    document = client.get("/v1/openapi.json").get_json()
    paths = document["paths"]
    assert set(paths["/v1/messages"]) == {"get", "post"}
    assert "202" in paths["/v1/messages"]["post"]["responses"]
    assert set(paths["/v1/messages/{message_id}"]) == {"get"}
    assert "409" in paths["/v1/messages/{message_id}/cancel"]["post"]["responses"]
    schemas = document["components"]["schemas"]
    create = schemas["MessageCreate"]
    assert create["properties"]["header"]["maxLength"] == 35
    assert create["properties"]["body"]["maxLength"] == 500
    assert set(create["required"]) == {"header", "body", "audience"}
    audience = schemas[create["properties"]["audience"]["$ref"].rsplit("/", 1)[1]]
    assert audience["properties"]["passIds"]["maxItems"] == 1000
    assert audience["additionalProperties"] is False
    assert schemas["Message"]["properties"]["status"]["enum"] == [
        "scheduled", "sending", "sent", "canceled"]
    one = issue(api, template)
    sent = send(api, {"passIds": [one["id"]]})
    validator = Draft202012Validator({"$ref": "#/components/schemas/Message",
                                      "components": document["components"]})
    for answer in (sent, api.get(f"/v1/messages/{sent['id']}").get_json(),
                   api.get("/v1/messages").get_json()["data"][0]):
        assert list(validator.iter_errors(answer)) == []


def test_a_nested_member_that_is_not_an_object_is_named(api: Api, template: dict[str, Any]
                                                        ) -> None:
    response = api.post("/v1/passes", {"templateId": template["id"], "platforms": 5,
                                       "fieldValues": {"member": "Ada"}})
    assert_error(response, 400, "invalid_request_error", "parameter_invalid", "platforms")


def test_an_endpoint_subscribed_to_message_sent_gets_it(app: Flask, api: Api,
                                                        template: dict[str, Any],
                                                        receiver: Any) -> None:
    import json

    app.config.update(WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True)
    hook = api.post("/v1/webhook-endpoints", {"url": receiver.url,
                                              "enabledEvents": ["message.sent"]})
    assert hook.status_code == 201, hook.get_data(as_text=True)
    one = issue(api, template)
    sent = send(api, {"passIds": [one["id"]]})
    [received] = receiver.wait_for(1)
    event = json.loads(received.body)
    assert event["type"] == "message.sent"
    assert event["data"]["object"]["id"] == sent["id"]
    assert event["data"]["object"]["audienceSize"] == 1
    assert len(receiver.requests) == 1  # subscribed to message.sent only


def test_failures_are_counted_by_error_code_in_one_query_a_wallet(
        app: Flask, api: Api, template: dict[str, Any]) -> None:
    from sqlalchemy import event, update

    from webapp.db.transaction import transaction
    from webapp.extensions import db
    from webapp.models import PassUpdate

    passes = [issue(api, template) for _ in range(3)]
    messages = [send(api, {"passIds": [p["id"] for p in passes]}, body=f"n{i}")["id"]
                for i in range(3)]
    failures = [({"code": "apns_unreachable"}, {"code": "google_rejected"}),
                ({"code": "apns_unreachable"}, {"message": "no code"}), (None, None)]
    with app.app_context(), transaction() as session:
        for message_id in messages:
            for item, (apple, google) in zip(passes, failures, strict=True):
                session.execute(update(PassUpdate).where(
                    PassUpdate.message_id == message_id, PassUpdate.pass_id == item["id"]
                ).values(apple_status="failed", apple_error=apple,
                         google_status="failed", google_error=google))
        engine = db.engine
    reads: list[str] = []

    def capture(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "FROM pass_updates" in statement:
            reads.append(statement)

    event.listen(engine, "before_cursor_execute", capture)
    try:
        listed = api.get("/v1/messages").get_json()["data"]
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    assert len(reads) == 3  # the counts, Apple's failures, Google's: not one a message
    for message in listed:
        apple, google = message["delivery"]["apple"], message["delivery"]["google"]
        assert (apple["failed"], google["failed"]) == (3, 3)
        assert apple["reasons"] == {"apns_unreachable": 2, "failed": 1}
        assert google["reasons"] == {"failed": 2, "google_rejected": 1}
