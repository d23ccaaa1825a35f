"""GET /v1/insights (issue 19): numbers from facts recorded the real way. Passes issued
through the API, holder pages viewed, wallet links followed, an Apple device registered and
unregistered through the Wallet web service (pushes to the HTTP/2 fake APNs), Google
save/delete callbacks delivered by the Google fake, updates delivered and failed; then
exact totals, rates and series, filters, tenant and environment isolation, bad parameters.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.factories import template_body
from tests.apple import conftest as apple_fixtures
from tests.apple.conftest import DEMO_PASS_TYPE, Device, apns_overrides, apple_overrides, auth_token
from tests.conftest import Api, app_with, assert_error
from tests.google import conftest as google_fixtures
from tests.google.conftest import ISSUER, google_overrides, issue
from tests.support.fake_google import FakeGoogle
from webapp import clock

# Both wallets' fakes, from their folders' fixtures.
fake_apns_server = apple_fixtures.fake_apns_server
fake_apns = apple_fixtures.fake_apns
fake_google_server = google_fixtures.fake_google_server
fake_google = google_fixtures.fake_google
demo_account = google_fixtures.demo_account
demo_account_file = google_fixtures.demo_account_file
served = google_fixtures.served

PHONE, TABLET = "a" * 64, "b" * 64
DAY1 = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)
DAY2 = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
COUNTS = ("issued", "pageViews", "addIntents", "added", "removed", "installed",
          "updatesSent", "updatesDelivered", "updatesFailed", "balanceChanges",
          "signupPageViews", "signups", "signupsAdded")


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path, fake_google: FakeGoogle,
        demo_account_file: str, fake_apns: Any) -> Iterator[Flask]:
    """Both wallets: the demo Apple identity pushing to the fake APNs, the fake Google."""
    yield from app_with(database, database_url, tmp_path, {
        **apple_overrides(), **google_overrides(fake_google, demo_account_file),
        **apns_overrides(fake_apns)})


def at(moment: datetime) -> None:
    clock.set_now(lambda: moment)


def counts(issued: int = 0, views: int = 0, intents: int = 0, added: int = 0,
           removed: int = 0, installed: int = 0, sent: int = 0, delivered: int = 0,
           failed: int = 0, balance: int = 0) -> dict[str, int]:
    return dict(zip(COUNTS, (issued, views, intents, added, removed, installed, sent,
                             delivered, failed, balance, 0, 0, 0), strict=True))


def insights(api: Api, **params: str) -> dict[str, Any]:
    response = api.get("/v1/insights", query_string=params)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def update(api: Api, item: dict[str, Any], level: str) -> dict[str, Any]:
    response = api.patch(f"/v1/passes/{item['id']}", {"fieldValues": {"level": level},
                                                       "notificationMode": "silent"})
    assert response.status_code == 200, response.get_data(as_text=True)
    return api.get(f"/v1/pass-updates/{response.get_json()['update']['id']}").get_json()


@pytest.fixture
def story(app: Flask, api: Api, client: FlaskClient, fake_google: FakeGoogle, fake_apns: Any,
          served: str) -> dict[str, Any]:
    """Two passes and what their holders and wallets did with them, over two days."""
    at(DAY1)
    template = api.post("/v1/templates", template_body()).get_json()
    a = issue(api, template, fieldValues={"member": "Ada", "level": "1"})
    b = issue(api, template, fieldValues={"member": "Bob", "level": "1"})

    at(DAY2)
    for short_id in (a["shortId"], a["shortId"], b["shortId"]):
        assert client.get(f"/p/{short_id}").status_code == 200
    assert client.head(f"/p/{a['shortId']}").status_code == 200  # no look
    assert client.get("/p/UNKNOWN00000").status_code == 404

    at(DAY2 + timedelta(minutes=1))
    assert client.get(f"/p/{a['shortId']}/apple.pkpass").status_code == 200
    at(DAY2 + timedelta(minutes=2))
    for item in (a, b):
        location = client.get(f"/p/{item['shortId']}/google").headers["Location"]
        assert fake_google.save(location).status_code == 200
    # A second save of the same object is the same installation.
    again = client.get(f"/p/{a['shortId']}/google").headers["Location"]
    assert fake_google.save(again).status_code == 200
    at(DAY2 + timedelta(minutes=3))
    assert fake_google.remove(f"{ISSUER}.{b['id']}").status_code == 200

    at(DAY2 + timedelta(minutes=4))
    token = auth_token(app, a["id"])
    phone, tablet = Device(client, "phone-1", PHONE), Device(client, "tablet-1", TABLET)
    assert phone.register(DEMO_PASS_TYPE, a["id"], token).status_code == 201
    assert tablet.register(DEMO_PASS_TYPE, a["id"], token).status_code == 201
    assert phone.register(DEMO_PASS_TYPE, a["id"], token).status_code == 200  # known
    at(DAY2 + timedelta(minutes=5))
    assert tablet.unregister(DEMO_PASS_TYPE, a["id"], token).status_code == 200

    at(DAY2 + timedelta(minutes=6))
    delivered = update(api, a, "2")
    assert delivered["delivery"]["apple"]["status"] == "sent"
    assert delivered["delivery"]["google"]["status"] == "updated"
    at(DAY2 + timedelta(minutes=7))
    fake_apns.answer(PHONE, (400, "TopicDisallowed"))
    fake_google.fail("PATCH", "/walletobjects/v1/genericObject", 400)
    failed = update(api, a, "3")
    assert failed["delivery"]["apple"]["status"] == "failed"
    assert failed["delivery"]["google"]["status"] == "failed"
    at(DAY2 + timedelta(minutes=8))
    nobody = update(api, b, "2")  # no device, removed from Google: nothing sent
    assert nobody["delivery"]["apple"]["status"] == "no_devices"
    assert nobody["delivery"]["google"]["status"] == "not_saved"
    return {"template": template, "a": a, "b": b, "updates": [delivered, failed, nobody]}


APPLE = counts(issued=2, views=3, intents=1, added=2, removed=1, installed=1, sent=2,
               delivered=1, failed=1)
GOOGLE = counts(issued=2, views=3, intents=3, added=2, removed=1, installed=1, sent=2,
                delivered=1, failed=1)
TOTALS = {**counts(issued=2, views=3, intents=4, added=4, removed=2, installed=2, sent=4,
                   delivered=2, failed=2), "byPlatform": {"apple": APPLE, "google": GOOGLE}}


def test_totals_rates_and_daily_series_from_recorded_facts(api: Api, story: dict) -> None:
    body = insights(api, **{"from": "2026-11-20", "to": "2026-11-21"})
    assert body["totals"] == TOTALS
    assert body["rates"] == {
        "installRate": 2.0, "removalRate": 0.5, "updateDeliveryRate": 0.5,
        "byPlatform": {
            "apple": {"installRate": 1.0, "removalRate": 0.5, "updateDeliveryRate": 0.5},
            "google": {"installRate": 1.0, "removalRate": 0.5, "updateDeliveryRate": 0.5}}}
    day1 = counts(issued=2)
    assert body == {
        "object": "insights", "from": "2026-11-20", "to": "2026-11-21", "templateId": None,
        "platform": None, "groupBy": "day", "totals": TOTALS, "rates": body["rates"],
        "series": [
            {"date": "2026-11-20", **day1, "byPlatform": {"apple": day1, "google": day1}},
            {"date": "2026-11-21", **TOTALS, "issued": 0,
             "byPlatform": {"apple": {**APPLE, "issued": 0}, "google": {**GOOGLE, "issued": 0}}},
        ]}


def test_installed_counts_everything_before_the_range(api: Api, story: dict) -> None:
    later = insights(api, **{"from": "2026-11-22", "to": "2026-11-23"})
    assert later["totals"] == {**counts(installed=2), "byPlatform": {
        "apple": counts(installed=1), "google": counts(installed=1)}}
    assert [d["installed"] for d in later["series"]] == [2, 2]
    assert later["rates"] == {"installRate": None, "removalRate": None,
                              "updateDeliveryRate": None, "byPlatform": {
                                  w: {"installRate": None, "removalRate": None,
                                      "updateDeliveryRate": None}
                                  for w in ("apple", "google")}}


def test_group_by_template_and_platform(api: Api, story: dict) -> None:
    other = api.post("/v1/templates", template_body(name="Other")).get_json()
    at(DAY2 + timedelta(hours=1))
    issue(api, other, fieldValues={"member": "Cy"})
    window = {"from": "2026-11-20", "to": "2026-11-21"}
    by_template = insights(api, **window, groupBy="template")["series"]
    assert by_template == [
        {"templateId": story["template"]["id"], "templateName": "Membership", **TOTALS},
        {"templateId": other["id"], "templateName": "Other", **counts(issued=1),
         "byPlatform": {"apple": counts(issued=1), "google": counts(issued=1)}}]
    by_platform = insights(api, **window, groupBy="platform")
    assert by_platform["series"] == [
        {"platform": "apple", **APPLE, "issued": 3},
        {"platform": "google", **GOOGLE, "issued": 3}]
    assert by_platform["totals"]["issued"] == 3


def test_filters_by_template_and_platform(api: Api, story: dict) -> None:
    other = api.post("/v1/templates", template_body(name="Other")).get_json()
    window = {"from": "2026-11-20", "to": "2026-11-21"}
    assert insights(api, **window, templateId=story["template"]["id"])["totals"] == TOTALS
    empty = insights(api, **window, templateId=other["id"])
    assert empty["templateId"] == other["id"]
    assert empty["totals"] == {**counts(), "byPlatform": {"apple": counts(),
                                                          "google": counts()}}
    apple = insights(api, **window, platform="apple")
    assert apple["platform"] == "apple"
    assert apple["totals"] == {**APPLE, "byPlatform": {"apple": APPLE, "google": counts()}}
    assert apple["rates"]["installRate"] == 1.0
    assert insights(api, **window, platform="google", groupBy="platform")["series"] == [
        {"platform": "google", **GOOGLE}]


def test_default_range_is_the_last_30_days(api: Api, story: dict) -> None:
    at(DAY2 + timedelta(days=29, hours=10))  # 2026-12-20
    body = insights(api)
    assert (body["from"], body["to"]) == ("2026-11-21", "2026-12-20")
    assert len(body["series"]) == 30
    assert body["totals"]["issued"] == 0  # issued on the 20th: just outside
    assert body["totals"]["pageViews"] == 3
    assert body["series"][0]["pageViews"] == 3


def test_tenants_and_environments_see_only_their_own(api: Api, live_api: Api, other_api: Api,
                                                    client: FlaskClient, story: dict) -> None:
    theirs = other_api.post("/v1/templates", template_body()).get_json()
    item = issue(other_api, theirs, fieldValues={"member": "Eve"})
    assert client.get(f"/p/{item['shortId']}").status_code == 200
    window = {"from": "2026-11-20", "to": "2026-11-21"}
    assert insights(api, **window)["totals"] == TOTALS
    assert insights(other_api, **window)["totals"] == {
        **counts(issued=1, views=1), "byPlatform": {"apple": counts(issued=1, views=1),
                                                    "google": counts(issued=1, views=1)}}
    assert insights(live_api, **window)["totals"] == {
        **counts(), "byPlatform": {"apple": counts(), "google": counts()}}
    assert_error(api.get("/v1/insights", query_string={"templateId": theirs["id"]}),
                 404, "not_found_error", "resource_missing", "templateId")


def test_the_pass_timeline(app: Flask, org: dict, story: dict) -> None:
    from webapp.services import insights as service
    from webapp.services.context import Context

    a, updates = story["a"], story["updates"]
    with app.app_context():
        timeline = service.timeline(Context(org["id"], "test"), a["id"])
    assert [(e["type"], e["platform"]) for e in timeline] == [
        ("issued", None), ("viewed", None), ("viewed", None), ("add_intent", "apple"),
        ("add_intent", "google"), ("added", "google"), ("add_intent", "google"),
        ("added", "apple"), ("added", "apple"), ("removed", "apple"),
        ("updated", None), ("updated", None)]
    assert timeline[0] == {"at": "2026-11-20T10:00:00.000Z", "type": "issued",
                           "platform": None, "detail": {"source": "api"}}
    assert timeline[-2]["detail"] == {"updateId": updates[0]["id"], "kind": "update",
                                      "apple": "sent", "google": "updated"}
    assert timeline[-1]["detail"] == {"updateId": updates[1]["id"], "kind": "update",
                                      "apple": "failed", "google": "failed"}


@pytest.mark.parametrize(("params", "param", "message"), [
    ({"from": "2026-11-31"}, "from", "from: Not a valid date."),
    ({"to": "yesterday"}, "to", "to: Not a valid date."),
    ({"from": "2026-11-21", "to": "2026-11-20"}, "from",
     "from (2026-11-21) must be on or before to (2026-11-20)."),
    ({"from": "2025-11-20", "to": "2026-11-21"}, "from",
     "from and to span 367 days; at most 366 days can be asked at once."),
    ({"platform": "windows"}, "platform", "platform: Must be one of: apple, google."),
    ({"groupBy": "week"}, "groupBy", "groupBy: Must be one of: day, template, platform."),
    ({"templateId": "tmpl_nope"}, "templateId", None),
])
def test_bad_parameters_are_400_or_404(api: Api, params: dict, param: str,
                                       message: str | None) -> None:
    response = api.get("/v1/insights", query_string=params)
    if message is None:
        assert_error(response, 404, "not_found_error", "resource_missing", param)
        return
    error = assert_error(response, 400, "invalid_request_error", "parameter_invalid", param)
    assert error["message"] == message


def test_unknown_and_repeated_parameters_are_400(api: Api) -> None:
    assert_error(api.get("/v1/insights", query_string={"days": "7"}), 400,
                 "invalid_request_error", "parameter_unknown", "days")
    assert_error(api.get("/v1/insights?platform=apple&platform=google"), 400,
                 "invalid_request_error", None, "platform")


def test_a_new_organization_gets_zeros(api: Api) -> None:
    body = insights(api, **{"from": "2026-11-01", "to": "2026-11-03"})
    zero = counts()
    assert body["totals"] == {**zero, "byPlatform": {"apple": zero, "google": zero}}
    assert [d["date"] for d in body["series"]] == ["2026-11-01", "2026-11-02", "2026-11-03"]
    assert insights(api, groupBy="template")["series"] == []


def test_answers_and_the_example_follow_the_openapi_document(api: Api, story: dict) -> None:
    from jsonschema import Draft202012Validator

    from webapp.api.insight_schemas import EXAMPLE

    document = api.client.get("/v1/openapi.json").get_json()
    operation = document["paths"]["/v1/insights"]["get"]
    assert operation["x-permission"] == "insights:read"
    content = operation["responses"]["200"]["content"]["application/json"]
    assert content["example"] == EXAMPLE
    validator = Draft202012Validator({**content["schema"],
                                      "components": document["components"]})
    validator.validate(EXAMPLE)
    window = {"from": "2026-11-20", "to": "2026-11-21"}
    for group_by in ("day", "template", "platform"):
        validator.validate(insights(api, **window, groupBy=group_by))


def test_download_link_pages_count_and_gone_pages_do_not(api: Api, client: FlaskClient,
                                                         fake_google: FakeGoogle) -> None:
    at(DAY2)
    template = api.post("/v1/templates", template_body()).get_json()
    item = issue(api, template, fieldValues={"member": "Ada"})
    link = api.post(f"/v1/passes/{item['id']}/download-links").get_json()
    token = link["url"].rsplit("/", 1)[1]
    assert client.get(f"/d/{token}").status_code == 200
    assert client.get(f"/d/{token}/apple.pkpass").status_code == 200
    assert client.get(f"/d/{token}/google").status_code == 302
    assert api.delete(f"/v1/passes/{item['id']}").status_code == 200
    assert client.get(f"/d/{token}").status_code == 410
    assert client.get(f"/p/{item['shortId']}").status_code == 410
    assert client.get(f"/p/{item['shortId']}/apple.pkpass").status_code == 410
    totals = insights(api, **{"from": "2026-11-21", "to": "2026-11-21"})["totals"]
    assert (totals["pageViews"], totals["addIntents"]) == (1, 2)
    assert totals["byPlatform"]["apple"]["addIntents"] == 1
