"""Check-in: POST/GET /v1/passes/<id>/redemptions and POST /v1/scans (issue 18).

Every refusal is answered exactly (status, type, code, the pass and the redemption that
decided it); bad input is a 400, never a 500; codes and IDs reach only the key's own
organization and environment.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api, assert_error
from webapp import clock

REDEMPTION_ID = re.compile(r"^rdm_[0-9a-z]{26}$")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def make_template(api: Api, redemption: dict[str, Any] | None = None, **changes: Any
                  ) -> dict[str, Any]:
    if redemption is not None:
        changes["redemption"] = redemption
    response = api.post("/v1/templates", template_body(**changes))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def issue(api: Api, template: dict[str, Any], **body: Any) -> dict[str, Any]:
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"}, **body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def ticket(api: Api, **redemption: Any) -> dict[str, Any]:
    """A pass of a new template with `redemption` (default single use)."""
    return issue(api, make_template(api, {"mode": "single", **redemption}))


def pass_events(api: Api) -> list[str]:
    """The pass events, newest first (not the deliveries, which jobs record when they run)."""
    return [e["type"] for e in api.get("/v1/events").get_json()["data"]
            if e["type"].startswith("pass.")]


def redeem(api: Api, pass_id: str, body: Any = None, **kw: Any) -> Any:
    return api.post(f"/v1/passes/{pass_id}/redemptions", body, **kw)


def key_id(api: Api) -> str:
    """The ID of the key `api` uses (`scannedBy.id`)."""
    from webapp.services.accounts import api_keys

    return api_keys.authenticate(api.key or "", None).api_key_id or ""


# ---- redeem --------------------------------------------------------------------------------

def test_a_single_use_pass_is_redeemed_once_then_refused_with_the_first_redemption(
        app: Flask, api: Api) -> None:
    item = ticket(api)
    first = redeem(api, item["id"], {"location": "  Gate B "})
    assert first.status_code == 201, first.get_json()
    body = first.get_json()
    with app.app_context():
        key = key_id(api)
    assert list(body) == ["id", "object", "passId", "redeemedAt", "source", "location",
                          "scannedBy"]
    assert REDEMPTION_ID.match(body["id"]) and TIMESTAMP.match(body["redeemedAt"])
    assert body == {"id": body["id"], "object": "redemption", "passId": item["id"],
                    "redeemedAt": body["redeemedAt"], "source": "api", "location": "Gate B",
                    "scannedBy": {"type": "apiKey", "id": key, "name": "Default"}}

    shown = api.get(f"/v1/passes/{item['id']}").get_json()
    assert shown["redemptionCount"] == 1 and shown["lastRedeemedAt"] == body["redeemedAt"]
    assert shown["status"] == "active"

    again = redeem(api, item["id"], {"location": "Gate C"})
    error = assert_error(again, 409, "conflict_error", "already_redeemed")
    assert error == {"type": "conflict_error", "code": "already_redeemed",
                     "message": f"This pass was checked in already, at {body['redeemedAt']} "
                                "at Gate B.",
                     "passId": item["id"], "redemption": body}
    assert "Retry-After" not in again.headers
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 1


def test_the_default_mode_none_refuses(api: Api) -> None:
    item = issue(api, make_template(api))
    error = assert_error(redeem(api, item["id"]), 409, "conflict_error",
                         "redemption_not_enabled")
    assert error == {"type": "conflict_error", "code": "redemption_not_enabled",
                     "message": "This pass's template does not take check-ins (its redemption "
                                "mode is none).", "passId": item["id"], "redemption": None}
    explicit = issue(api, make_template(api, {"mode": "none"}))
    assert_error(redeem(api, explicit["id"]), 409, "conflict_error", "redemption_not_enabled")


def test_a_voided_pass_is_refused(api: Api) -> None:
    item = ticket(api)
    assert api.delete(f"/v1/passes/{item['id']}").status_code == 200
    error = assert_error(redeem(api, item["id"]), 409, "conflict_error", "pass_voided")
    assert error == {"type": "conflict_error", "code": "pass_voided",
                     "message": "This pass is voided: it cannot be checked in.",
                     "passId": item["id"], "redemption": None}


def test_an_expired_pass_is_refused(api: Api) -> None:
    template = make_template(api, {"mode": "multiple"}, expiresAt="2027-01-01T00:00:00Z")
    item = issue(api, template)
    clock.set_now(lambda: datetime(2027, 1, 1, tzinfo=UTC))
    error = assert_error(redeem(api, item["id"]), 409, "conflict_error", "pass_expired")
    assert error == {"type": "conflict_error", "code": "pass_expired",
                     "message": "This pass expired at 2027-01-01T00:00:00Z: it cannot be "
                                "checked in.", "passId": item["id"], "redemption": None}
    clock.set_now(lambda: datetime(2026, 12, 31, 23, 59, tzinfo=UTC))
    assert redeem(api, item["id"]).status_code == 201


def test_multiple_uses_count_up_to_max_uses(api: Api) -> None:
    item = issue(api, make_template(api, {"mode": "multiple", "maxUses": 2}))
    made = [redeem(api, item["id"], {"location": f"Door {n}"}) for n in (1, 2)]
    assert [r.status_code for r in made] == [201, 201]
    third = redeem(api, item["id"])
    error = assert_error(third, 409, "conflict_error", "max_uses_reached")
    assert error == {"type": "conflict_error", "code": "max_uses_reached",
                     "message": "This pass has been redeemed 2 times, the most its template "
                                "allows (maxUses).",
                     "passId": item["id"], "redemption": made[1].get_json()}
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 2


def test_multiple_without_max_uses_has_no_limit(api: Api) -> None:
    item = issue(api, make_template(api, {"mode": "multiple"}))
    assert [redeem(api, item["id"]).status_code for _ in range(4)] == [201] * 4
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 4


def test_void_on_redemption_voids_the_pass_and_later_scans_say_when(api: Api) -> None:
    item = ticket(api, voidOnRedemption=True)
    first = redeem(api, item["id"])
    assert first.status_code == 201
    shown = api.get(f"/v1/passes/{item['id']}").get_json()
    assert shown["status"] == "voided" and shown["voidedAt"] == first.get_json()["redeemedAt"]
    updates = api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"]
    assert [u["kind"] for u in updates] == ["void"]
    again = redeem(api, item["id"])
    error = assert_error(again, 409, "conflict_error", "already_redeemed")
    assert error["redemption"] == first.get_json()
    assert pass_events(api) == ["pass.redeemed", "pass.voided", "pass.created"]


def test_a_redemption_records_a_wallet_update_with_the_checked_in_time(api: Api) -> None:
    item = ticket(api)
    body = redeem(api, item["id"]).get_json()
    [update] = api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"]
    assert update["kind"] == "update" and update["walletChanged"] is True
    assert update["notificationMode"] == "silent"
    assert update["changes"] == {"fields": [{"key": "redemption.checkedIn",
                                             "label": "Checked in", "from": None,
                                             "to": body["redeemedAt"]}]}
    assert update["delivery"]["apple"]["status"] != "skipped"
    assert update["delivery"]["google"]["status"] != "skipped"


def test_the_pass_redeemed_event_carries_the_pass_and_the_redemption(api: Api) -> None:
    item = ticket(api)
    body = redeem(api, item["id"]).get_json()
    assert pass_events(api) == ["pass.redeemed", "pass.updated", "pass.created"]
    data = api.get("/v1/events?type=pass.redeemed").get_json()["data"][0]["data"]
    assert data["redemption"] == body
    assert data["object"]["id"] == item["id"] and data["object"]["redemptionCount"] == 1
    assert data["object"]["lastRedeemedAt"] == body["redeemedAt"]


def test_a_new_pass_shows_no_redemptions(api: Api) -> None:
    item = ticket(api)
    assert item["redemptionCount"] == 0 and item["lastRedeemedAt"] is None
    listed = api.get("/v1/passes").get_json()["data"][0]
    assert listed["redemptionCount"] == 0 and listed["lastRedeemedAt"] is None


# ---- idempotency ---------------------------------------------------------------------------

def test_a_retry_replays_the_redemption_and_counts_nothing(api: Api) -> None:
    item = ticket(api)
    first = redeem(api, item["id"], {"location": "Gate A"}, idem="door-1")
    again = redeem(api, item["id"], {"location": "Gate A"}, idem="door-1")
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 1
    other = redeem(api, item["id"], {"location": "Gate B"}, idem="door-1")
    assert_error(other, 400, "idempotency_error", "idempotency_key_reused")


def test_a_retry_of_a_refusal_replays_the_refusal(api: Api) -> None:
    item = issue(api, make_template(api))
    first = redeem(api, item["id"], idem="door-2")
    again = redeem(api, item["id"], idem="door-2")
    assert first.status_code == again.status_code == 409
    assert again.get_data() == first.get_data()


def test_a_redemption_needs_an_idempotency_key(api: Api) -> None:
    item = ticket(api)
    response = api.client.post(f"/v1/passes/{item['id']}/redemptions", json={},
                               headers={"Authorization": f"Bearer {api.key}"})
    assert_error(response, 400, "invalid_request_error", "idempotency_key_missing",
                 "Idempotency-Key")


# ---- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize(("body", "code", "param"), [
    ({"location": 12}, "parameter_invalid", "location"),
    ({"location": ["Gate"]}, "parameter_invalid", "location"),
    ({"location": "x" * 101}, "parameter_invalid", "location"),
    ({"location": "Gate\nB"}, "parameter_invalid", "location"),
    ({"location": "Gate \u0007"}, "parameter_invalid", "location"),
    ({"where": "Gate B"}, "parameter_unknown", "where"),
])
def test_bad_redemption_bodies_are_400(api: Api, body: Any, code: str, param: str) -> None:
    item = ticket(api)
    assert_error(redeem(api, item["id"], body), 400, "invalid_request_error", code, param)
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 0


def test_a_body_that_is_not_an_object_is_400(api: Api) -> None:
    item = ticket(api)
    assert_error(redeem(api, item["id"], ["Gate"]), 400, "invalid_request_error",
                 "invalid_json")


def test_a_location_of_100_characters_and_no_body_are_fine(api: Api) -> None:
    item = issue(api, make_template(api, {"mode": "multiple"}))
    assert redeem(api, item["id"], {"location": "x" * 100}).get_json()["location"] == "x" * 100
    assert redeem(api, item["id"]).get_json()["location"] is None
    assert redeem(api, item["id"], {"location": None}).get_json()["location"] is None
    assert redeem(api, item["id"], {"location": "   "}).get_json()["location"] is None


@pytest.mark.parametrize("pass_id", ["pass_missing", "nope", "pass_" + "0" * 26])
def test_unknown_pass_ids_are_404(api: Api, pass_id: str) -> None:
    assert_error(redeem(api, pass_id), 404, "not_found_error", "resource_missing", "id")
    assert_error(api.get(f"/v1/passes/{pass_id}/redemptions"), 404, "not_found_error",
                 "resource_missing", "id")


def test_another_organization_s_or_environment_s_pass_is_404(api: Api, other_api: Api,
                                                             live_api: Api) -> None:
    item = ticket(api)
    for stranger in (other_api, live_api):
        assert_error(redeem(stranger, item["id"]), 404, "not_found_error", "resource_missing")
        assert_error(stranger.get(f"/v1/passes/{item['id']}/redemptions"), 404,
                     "not_found_error", "resource_missing")
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 0


# ---- list ----------------------------------------------------------------------------------

def test_redemptions_are_listed_newest_first_with_cursors(api: Api) -> None:
    item = issue(api, make_template(api, {"mode": "multiple"}))
    made = [redeem(api, item["id"], {"location": f"Door {n}"}).get_json() for n in range(3)]
    page = api.get(f"/v1/passes/{item['id']}/redemptions?limit=2").get_json()
    assert page == {"object": "list", "data": [made[2], made[1]], "hasMore": True,
                    "nextCursor": made[1]["id"]}
    rest = api.get(f"/v1/passes/{item['id']}/redemptions?limit=2&cursor={made[1]['id']}")
    assert rest.get_json() == {"object": "list", "data": [made[0]], "hasMore": False,
                               "nextCursor": None}
    assert_error(api.get(f"/v1/passes/{item['id']}/redemptions?limit=0"), 400,
                 "invalid_request_error", "parameter_invalid", "limit")
    assert_error(api.get(f"/v1/passes/{item['id']}/redemptions?cursor=rdm_x"), 400,
                 "invalid_request_error", "invalid_cursor", "cursor")


# ---- scans --------------------------------------------------------------------------------

def scan(api: Api, code: Any, **body: Any) -> Any:
    return api.post("/v1/scans", {"code": code, **body})


def test_a_scan_of_the_short_id_redeems_and_answers_the_pass(api: Api) -> None:
    item = ticket(api)
    response = scan(api, item["shortId"], location="Gate B")
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["object"] == "redemption" and body["passId"] == item["id"]
    assert body["location"] == "Gate B" and body["source"] == "api"
    assert body["pass"]["id"] == item["id"] and body["pass"]["redemptionCount"] == 1
    assert body["pass"]["holderName"] is None and body["pass"]["fieldValues"] == {
        "member": "Ada"}
    listed = api.get(f"/v1/passes/{item['id']}/redemptions").get_json()["data"]
    assert listed == [{k: v for k, v in body.items() if k != "pass"}]
    error = assert_error(scan(api, item["shortId"]), 409, "conflict_error", "already_redeemed")
    assert error["redemption"] == listed[0] and error["passId"] == item["id"]


@pytest.mark.parametrize("form", ["lower", "padded", "pass_id"])
def test_a_scan_finds_the_pass_by_any_form_of_its_ids(api: Api, form: str) -> None:
    item = ticket(api)
    code = {"lower": item["shortId"].lower(), "padded": f"  {item['shortId']}\n",
            "pass_id": item["id"]}[form]
    response = scan(api, code)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["passId"] == item["id"]


def test_a_scan_finds_a_per_pass_barcode_value(api: Api) -> None:
    template = make_template(api, {"mode": "single"},
                             barcode={"format": "qr", "perPass": True})
    item = issue(api, template, barcodeValue="MEMBER-0042")
    issue(api, template, barcodeValue="MEMBER-0043")
    response = scan(api, "MEMBER-0042")
    assert response.status_code == 201 and response.get_json()["passId"] == item["id"]


def test_a_per_pass_value_two_passes_share_is_ambiguous(api: Api) -> None:
    template = make_template(api, {"mode": "single"},
                             barcode={"format": "qr", "perPass": True})
    issue(api, template, barcodeValue="SAME")
    issue(api, template, barcodeValue="SAME")
    assert_error(scan(api, "SAME"), 409, "conflict_error", "ambiguous_code", "code")


def test_a_scan_finds_a_template_value_with_placeholders(api: Api) -> None:
    template = make_template(api, {"mode": "single"},
                             barcode={"format": "qr", "value": "TICKET-{{shortId}}/{{passId}}"})
    item = issue(api, template)
    response = scan(api, f"TICKET-{item['shortId']}/{item['id']}")
    assert response.status_code == 201 and response.get_json()["passId"] == item["id"]
    # The IDs inside other text are not enough: the whole barcode must match.
    assert_error(scan(api, f"FAKE-{item['shortId']}"), 404, "not_found_error", "unknown_code")


@pytest.mark.parametrize("suffix", ["", "/", "/apple.pkpass", "/google", "?lang=de"])
def test_a_scan_of_the_holder_link_finds_its_pass(api: Api, suffix: str) -> None:
    """The pass's printable QR code holds its holder link (`distributionUrl`)."""
    item = ticket(api)
    response = scan(api, item["distributionUrl"] + suffix)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["passId"] == item["id"]


def test_a_scan_of_a_download_link_finds_its_pass_after_it_expired(api: Api) -> None:
    item = ticket(api)
    link = api.post(f"/v1/passes/{item['id']}/download-links",
                    {"expiresInSeconds": 60}).get_json()
    later = clock.now() + timedelta(hours=2)
    clock.set_now(lambda: later)  # the link says which pass it is, still
    response = scan(api, link["url"] + "/apple.pkpass")
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["passId"] == item["id"]


@pytest.mark.parametrize("path", ["/p/ZZZZZZZZZZZZ", "/d/" + "a" * 32, "/p/", "/x/ZZZZZZZZZZZZ"])
def test_a_link_to_no_pass_is_an_unknown_code(api: Api, path: str) -> None:
    ticket(api)
    assert_error(scan(api, "https://passes.example" + path), 404, "not_found_error",
                 "unknown_code", "code")


def test_another_organization_s_or_environment_s_links_are_unknown(
        api: Api, other_api: Api, live_api: Api) -> None:
    item = ticket(api)
    link = api.post(f"/v1/passes/{item['id']}/download-links").get_json()["url"]
    for stranger in (other_api, live_api):
        for code in (item["distributionUrl"], link):
            assert_error(scan(stranger, code), 404, "not_found_error", "unknown_code", "code")


@pytest.mark.parametrize("code", ["ZZZZZZZZZZZZ", "pass_" + "0" * 26, "hello", "x" * 2000])
def test_an_unknown_code_is_404_with_its_own_code(api: Api, code: str) -> None:
    ticket(api)
    error = assert_error(scan(api, code), 404, "not_found_error", "unknown_code", "code")
    assert error["message"] == "No pass of this environment has this code."


def test_another_organization_s_or_environment_s_codes_are_unknown(
        api: Api, other_api: Api, live_api: Api) -> None:
    item = ticket(api)
    for stranger in (other_api, live_api):
        for code in (item["shortId"], item["id"]):
            assert_error(scan(stranger, code), 404, "not_found_error", "unknown_code", "code")
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 0


@pytest.mark.parametrize(("body", "code", "param"), [
    ({}, "parameter_missing", "code"),
    ({"code": None}, "parameter_invalid", "code"),
    ({"code": 123456789012}, "parameter_invalid", "code"),
    ({"code": ""}, "parameter_invalid", "code"),
    ({"code": "   "}, "parameter_invalid", "code"),
    ({"code": "x" * 2001}, "parameter_invalid", "code"),
    ({"code": "AB\u0000CD"}, "parameter_invalid", "code"),
    ({"code": "ABC", "location": "x" * 101}, "parameter_invalid", "location"),
    ({"code": "ABC", "location": False}, "parameter_invalid", "location"),
    ({"code": "ABC", "extra": 1}, "parameter_unknown", "extra"),
])
def test_bad_scan_bodies_are_400(api: Api, body: Any, code: str, param: str) -> None:
    assert_error(api.post("/v1/scans", body), 400, "invalid_request_error", code, param)


def test_a_scan_of_a_pass_without_check_in_is_refused(api: Api) -> None:
    item = issue(api, make_template(api))
    error = assert_error(scan(api, item["shortId"]), 409, "conflict_error",
                         "redemption_not_enabled")
    assert error["passId"] == item["id"]


# ---- the rule in the template ------------------------------------------------------------

@pytest.mark.parametrize(("redemption", "path", "code"), [
    ("single", "/redemption", "invalid_type"),
    ({}, "/redemption/mode", "required"),
    ({"mode": "twice"}, "/redemption/mode", "invalid_value"),
    ({"mode": "multiple", "maxUses": 0}, "/redemption/maxUses", "out_of_range"),
    ({"mode": "multiple", "maxUses": 100_001}, "/redemption/maxUses", "out_of_range"),
    ({"mode": "multiple", "maxUses": 2.5}, "/redemption/maxUses", "invalid_type"),
    ({"mode": "multiple", "maxUses": True}, "/redemption/maxUses", "invalid_type"),
    ({"mode": "multiple", "maxUses": "3"}, "/redemption/maxUses", "invalid_type"),
    ({"mode": "single", "maxUses": 3}, "/redemption/maxUses", "not_allowed"),
    ({"mode": "multiple", "voidOnRedemption": True}, "/redemption/voidOnRedemption",
     "not_allowed"),
    ({"mode": "single", "voidOnRedemption": "yes"}, "/redemption/voidOnRedemption",
     "invalid_type"),
    ({"mode": "single", "once": True}, "/redemption/once", "unknown_member"),
])
def test_bad_redemption_rules_are_definition_issues(api: Api, redemption: Any, path: str,
                                                    code: str) -> None:
    response = api.post("/v1/templates", template_body(redemption=redemption))
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition",
                         "definition")
    assert [(i["path"], i["code"]) for i in error["issues"]] == [(path, code)]


def test_changing_the_rule_is_a_new_revision_and_old_passes_keep_theirs(api: Api) -> None:
    template = make_template(api)
    old = issue(api, template)
    body = template_body(redemption={"mode": "single"})
    changed = api.patch(f"/v1/templates/{template['id']}",
                        {"expectedRevision": 1, "definition": body["definition"]})
    assert changed.status_code == 200 and changed.get_json()["revision"] == 2
    new = issue(api, template)
    assert redeem(api, new["id"]).status_code == 201
    assert_error(redeem(api, old["id"]), 409, "conflict_error", "redemption_not_enabled")


def test_the_revision_history_names_a_changed_rule() -> None:
    from webapp.domain import definition_diff

    before = template_body()["definition"]
    after = template_body(redemption={"mode": "multiple", "maxUses": 5})["definition"]
    assert [(c.section, c.item, c.kind, c.before, c.after)
            for c in definition_diff.diff(before, after)] == [
        ("Check-in", "Mode", "added", None, "several times"),
        ("Check-in", "Most uses", "added", None, "5")]


def test_the_time_a_pass_expires_is_checked_when_it_is_redeemed(api: Api) -> None:
    """Expiry is read at the redemption, not at issue: a pass issued in time expires later."""
    later = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    item = issue(api, make_template(api, {"mode": "single"}, expiresAt=later))
    clock.set_now(lambda: datetime.now(UTC) + timedelta(days=2))
    assert_error(redeem(api, item["id"]), 409, "conflict_error", "pass_expired")


# ---- the OpenAPI document -----------------------------------------------------------------

def _schema_of(document: dict[str, Any], path: str, method: str, status: str) -> Any:
    from jsonschema import Draft202012Validator

    content = document["paths"][path][method]["responses"][status]["content"]
    return Draft202012Validator({**content["application/json"]["schema"],
                                 "components": document["components"]})


def test_the_openapi_document_describes_check_in_and_the_answers_match(
        client: Any, api: Api) -> None:
    from jsonschema import Draft202012Validator

    document = client.get("/v1/openapi.json").get_json()
    redeem_op = document["paths"]["/v1/passes/{pass_id}/redemptions"]["post"]
    assert redeem_op["x-permission"] == "redemptions:write"
    assert redeem_op["responses"]["409"]["content"]["application/json"]["example"][
        "error"]["code"] == "already_redeemed"
    assert redeem_op["responses"]["201"]["content"]["application/json"]["example"][
        "object"] == "redemption"
    assert document["paths"]["/v1/scans"]["post"]["x-permission"] == "redemptions:write"
    assert document["paths"]["/v1/passes/{pass_id}/redemptions"]["get"][
        "x-permission"] == "redemptions:read"
    event_types = document["components"]["schemas"]["Event"]["properties"]["type"]["enum"]
    assert "pass.redeemed" in event_types

    item = issue(api, make_template(api, {"mode": "multiple", "maxUses": 2}))
    made = redeem(api, item["id"], {"location": "Gate A"})
    _schema_of(document, "/v1/passes/{pass_id}/redemptions", "post", "201").validate(
        made.get_json())
    scanned = scan(api, item["shortId"])
    _schema_of(document, "/v1/scans", "post", "201").validate(scanned.get_json())
    refused = scan(api, item["shortId"])
    _schema_of(document, "/v1/scans", "post", "409").validate(refused.get_json())
    listed = api.get(f"/v1/passes/{item['id']}/redemptions").get_json()
    _schema_of(document, "/v1/passes/{pass_id}/redemptions", "get", "200").validate(listed)
    _schema_of(document, "/v1/passes/{pass_id}", "get", "200").validate(
        api.get(f"/v1/passes/{item['id']}").get_json())

    definition = Draft202012Validator({"$ref": "#/components/schemas/Definition",
                                       "components": document["components"]})
    for good in ({"mode": "none"}, {"mode": "single", "voidOnRedemption": True},
                 {"mode": "multiple", "maxUses": 10}, {"mode": "multiple"}):
        definition.validate(template_body(redemption=good)["definition"])
    for bad in ({"mode": "single", "maxUses": 3}, {"mode": "multiple", "maxUses": 0},
                {"mode": "multiple", "voidOnRedemption": True}, {"mode": "twice"}, {}):
        assert not definition.is_valid(template_body(redemption=bad)["definition"]), bad


def test_restricted_keys_need_the_redemptions_permission(app: Flask, api: Api,
                                                         org: dict[str, Any]) -> None:
    from tests.api.test_permissions import restricted

    item = issue(api, make_template(api, {"mode": "multiple"}))
    shop = restricted(app, api.client, org, {"passes": "write"})
    for response, need in ((redeem(shop, item["id"]), "write"),
                           (scan(shop, item["shortId"]), "write"),
                           (shop.get(f"/v1/passes/{item['id']}/redemptions"), "read")):
        assert_error(response, 403, "permission_error", "insufficient_scope")
        assert response.get_json()["error"]["message"] == (
            f"This API key cannot {need} redemptions: it needs the redemptions:{need} "
            "permission.")
    door = restricted(app, api.client, org, {"redemptions": "write"})
    assert redeem(door, item["id"]).status_code == 201
    assert scan(door, item["shortId"]).status_code == 201
    assert door.get(f"/v1/passes/{item['id']}/redemptions").status_code == 200
    assert api.get(f"/v1/passes/{item['id']}").get_json()["redemptionCount"] == 2
