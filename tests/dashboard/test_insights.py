"""Insights in the dashboard (issue 19): the environment's home page, a template's insights
and the CSV show the numbers `GET /v1/insights` answers for the same filters; bad filters get
a clear message; another organization's template is a 404; a new organization sees how to
issue its first pass; a pass's page shows its own timeline."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import timedelta
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.apple.conftest import Device, apple_overrides, auth_token
from tests.conftest import Api, app_with
from tests.dashboard.conftest import Dash, text
from webapp import clock
from webapp.dashboard.charts import COUNTS


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """The app with the demo Apple identity: passes download, and devices register."""
    yield from app_with(database, database_url, tmp_path, apple_overrides())


def _template(api: Api, name: str = "Gym") -> dict[str, Any]:
    response = api.post("/v1/templates", template_body(name=name))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _issue(api: Api, template: dict[str, Any]) -> dict[str, Any]:
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _activity(app: Flask, api: Api) -> dict[str, Any]:
    """Two templates, three passes; page views, add intents, an Apple device that adds
    one pass and removes another: facts of every kind the page counts."""
    gym, pool = _template(api, "Gym"), _template(api, "Pool")
    first, second, third = _issue(api, gym), _issue(api, gym), _issue(api, pool)
    client = app.test_client()
    for item in (first, first, second):
        assert client.get(f"/p/{item['shortId']}").status_code == 200
    for item in (first, third):
        assert client.get(f"/p/{item['shortId']}/apple.pkpass").status_code == 200
    device = Device(client, "device1", "ab" * 32)
    for item in (first, third):
        assert device.register(_pass_type(app, item["id"]), item["id"],
                               auth_token(app, item["id"])).status_code == 201
    assert device.unregister(_pass_type(app, third["id"]), third["id"],
                             auth_token(app, third["id"])).status_code == 200
    return {"gym": gym, "pool": pool, "passes": [first, second, third]}


def _pass_type(app: Flask, pass_id: str) -> str:
    from webapp.extensions import db
    from webapp.models import Pass
    from webapp.services.apple import passes

    with app.app_context():
        return passes.pass_type_identifier(db.session.get(Pass, pass_id))


def _funnel(page: str) -> dict[str, int]:
    """The funnel's numbers as the page shows them."""
    return {name: int(value) for name, value in re.findall(
        r'<li class="step-\w+" data-count="(\w+)">\s*<div class="funnel-head">'
        r'<span class="funnel-label">[^<]*</span> <strong class="funnel-value">(\d+)</strong>',
        page)}


def _table(page: str) -> list[list[str]]:
    """The rows of the numbers table (the header cell, then the counts), total last."""
    body = page.split('id="insights-table"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)[1:]  # without the header row
    return [[unescape(re.sub(r"<[^>]+>", "", cell)).strip()
             for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)] for row in rows]


def _api_rows(answer: dict[str, Any], key: str) -> list[list[str]]:
    return [[str(row[key]), *(str(row[c]) for c in COUNTS)] for row in answer["series"]] + \
        [["Total", *(str(answer["totals"][c]) for c in COUNTS)]]


def test_the_home_page_shows_the_apis_numbers(app: Flask, api: Api, dash: Dash) -> None:
    _activity(app, api)
    answer = api.get("/v1/insights").get_json()
    assert answer["totals"]["issued"] == 3 and answer["totals"]["added"] == 2  # facts recorded
    response = dash.get("/dashboard/test/")
    assert response.status_code == 200
    page = text(response)
    assert _funnel(page) == {name: answer["totals"][name] for name in (
        "issued", "pageViews", "addIntents", "added", "installed", "removed")}
    assert _table(page) == _api_rows(answer, "date")
    assert f'id="rate-install">{_percent(answer["rates"]["installRate"])}<' in page
    assert page.count('data-chart="activity"') == 2  # wide and narrow
    assert 'data-chart="installed"' in page
    assert '<a href="/dashboard/test/" class="on" aria-current="page">Overview</a>' in page


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{round(rate * 100, 1):g}%"


def test_filters_give_the_apis_numbers_for_the_same_filters(app: Flask, api: Api,
                                                            dash: Dash) -> None:
    made = _activity(app, api)
    today = clock.now().date()
    query = (f"from={today - timedelta(days=6)}&to={today}&platform=apple")
    answer = api.get(f"/v1/insights?{query}&templateId={made['gym']['id']}").get_json()
    page = text(dash.get(f"/dashboard/test/?{query}&template={made['gym']['id']}"))
    assert _table(page) == _api_rows(answer, "date") and len(answer["series"]) == 7
    assert _funnel(page)["issued"] == answer["totals"]["issued"] == 2
    by_template = api.get(f"/v1/insights?{query}&groupBy=template").get_json()
    page = text(dash.get(f"/dashboard/test/?{query}&groupBy=template"))
    names = {made["gym"]["id"]: "Gym", made["pool"]["id"]: "Pool"}
    assert _table(page) == [[names[row[0]], *row[1:]]
                            for row in _api_rows(by_template, "templateId")[:-1]] + \
        [_api_rows(by_template, "templateId")[-1]]
    by_wallet = api.get("/v1/insights?groupBy=platform").get_json()
    page = text(dash.get("/dashboard/test/?groupBy=platform"))
    wallets = {"apple": "Apple Wallet", "google": "Google Wallet"}
    assert _table(page) == [[wallets.get(row[0], row[0]), *row[1:]]
                            for row in _api_rows(by_wallet, "platform")]


def test_the_template_page_shows_that_templates_numbers(app: Flask, api: Api,
                                                        dash: Dash) -> None:
    made = _activity(app, api)
    pool = made["pool"]["id"]
    answer = api.get(f"/v1/insights?templateId={pool}").get_json()
    response = dash.get(f"/dashboard/test/templates/{pool}/insights")
    assert response.status_code == 200
    page = text(response)
    assert _table(page) == _api_rows(answer, "date")
    assert _funnel(page) == {"issued": 1, "pageViews": 0, "addIntents": 1, "added": 1,
                             "installed": 0, "removed": 1}
    assert f'href="/dashboard/test/insights.csv?template={pool}"' in page
    designer = text(dash.get(f"/dashboard/test/templates/{pool}"))
    assert f'href="/dashboard/test/templates/{pool}/insights">Insights</a>' in designer


def test_the_csv_has_the_same_numbers(app: Flask, api: Api, dash: Dash) -> None:
    made = _activity(app, api)
    answer = api.get("/v1/insights").get_json()
    response = dash.get("/dashboard/test/insights.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == (
        f"attachment; filename=insights-test-{answer['from']}-{answer['to']}.csv")
    rows = list(csv.DictReader(io.StringIO(text(response))))
    assert [row["date"] for row in rows] == [r["date"] for r in answer["series"]] + ["total"]
    for row, expected in zip(rows, [*answer["series"], answer["totals"]], strict=True):
        assert {c: int(row[c]) for c in COUNTS} == {c: expected[c] for c in COUNTS}
        assert {c: int(row[f"apple.{c}"]) for c in COUNTS} == expected["byPlatform"]["apple"]
        assert {c: int(row[f"google.{c}"]) for c in COUNTS} == expected["byPlatform"]["google"]
    grouped = api.get(f"/v1/insights?groupBy=template&templateId={made['gym']['id']}"
                      ).get_json()
    rows = list(csv.DictReader(io.StringIO(text(dash.get(
        f"/dashboard/test/insights.csv?groupBy=template&template={made['gym']['id']}")))))
    assert [(r["templateId"], r["templateName"], int(r["added"])) for r in rows] == [
        (made["gym"]["id"], "Gym", grouped["series"][0]["added"]),
        ("total", "", grouped["totals"]["added"])]


def test_a_template_name_is_never_a_spreadsheet_formula(app: Flask, api: Api,
                                                        dash: Dash) -> None:
    _issue(api, _template(api, "=HYPERLINK(\"http://x\")"))
    body = text(dash.get("/dashboard/test/insights.csv?groupBy=template"))
    assert "'=HYPERLINK" in body and ',=HYPERLINK' not in body


@pytest.mark.parametrize(("query", "message"), [
    ("from=2026-13-01", "'from' must be a day written YYYY-MM-DD, e.g. 2026-11-25."),
    ("to=tomorrow", "'to' must be a day written YYYY-MM-DD, e.g. 2026-11-25."),
    ("from=%EF%BC%92026-01-01", "'from' must be a day written YYYY-MM-DD, e.g. 2026-11-25."),
    ("from=2026-11-20&to=2026-11-01", None),
    ("from=2024-01-01&to=2026-01-01", None),
    ("platform=nokia", "platform must be apple or google."),
    ("groupBy=week", "groupBy must be day, template or platform."),
])
def test_a_bad_filter_gets_a_clear_message(api: Api, dash: Dash, query: str,
                                           message: str | None) -> None:
    # The range's messages are the service's, as the API gives them.
    expected = message or api.get(f"/v1/insights?{query}").get_json()["error"]["message"]
    response = dash.get(f"/dashboard/test/?{query}")
    assert response.status_code == 400
    assert f'<div class="flash bad" role="alert" id="insights-error">{expected}</div>' in \
        unescape(text(response))
    assert 'id="insights-filters"' in text(response)  # the form stays, to fix the filter
    csv_answer = dash.get(f"/dashboard/test/insights.csv?{query}")
    assert (csv_answer.status_code, csv_answer.mimetype, text(csv_answer)) == \
        (400, "text/plain", f"{expected}\n")


def test_another_organizations_template_is_not_found(api: Api, other_api: Api,
                                                     dash: Dash) -> None:
    _issue(api, _template(api))
    theirs = _template(other_api, "Theirs")["id"]
    for path in (f"/dashboard/test/?template={theirs}",
                 f"/dashboard/test/insights.csv?template={theirs}",
                 f"/dashboard/test/templates/{theirs}/insights",
                 "/dashboard/test/templates/tmpl_nope/insights"):
        response = dash.get(path)
        assert response.status_code == 404, path
        assert "Theirs" not in text(response)


def test_a_new_organization_sees_how_to_issue_its_first_pass(dash: Dash) -> None:
    response = dash.get("/dashboard/test/")
    assert response.status_code == 200
    page = text(response)
    assert "Issue your first test pass" in page
    assert 'href="/dashboard/test/passes/new"' in page and "POST /v1/passes" in page
    assert 'href="/v1/openapi.json"' in page
    assert "<svg" not in page.split('id="first-pass"', 1)[1]  # no empty axes


def test_a_quiet_period_says_so_instead_of_drawing_empty_axes(app: Flask, api: Api,
                                                              dash: Dash) -> None:
    _activity(app, api)
    page = text(dash.get("/dashboard/test/?from=2025-01-01&to=2025-01-31"))
    assert "Nothing happened between 2025-01-01 and 2025-01-31" in page
    assert 'class="chart' not in page and 'id="funnel"' not in page
    assert _table(page)[-1] == ["Total", *(["0"] * len(COUNTS))]


def test_a_pass_page_shows_its_own_timeline(app: Flask, api: Api, dash: Dash) -> None:
    first = _activity(app, api)["passes"][0]
    page = text(dash.get(f"/dashboard/test/passes/{first['id']}"))
    activity = page.split('id="pass-activity"', 1)[1].split("</section>", 1)[0]
    kinds = re.findall(r'data-type="(\w+)"(?: data-platform="(\w+)")?', activity)
    assert kinds == [("added", "apple"), ("add_intent", "apple"), ("viewed", ""),
                     ("issued", "")]
    assert "Holder page opened 2 times" in activity
    assert "Added to a device&#39;s Apple Wallet" in activity
    assert "Issued through the API" in activity


@pytest.mark.parametrize(("largest", "ticks"), [
    (0, [0, 1]), (1, [0, 1]), (3, [0, 1, 2, 3, 4, 5]), (7, [0, 2, 4, 6, 8, 10]),
    (20, [0, 5, 10, 15, 20]), (37, [0, 10, 20, 30, 40, 50]), (1234, [0, 500, 1000, 1500, 2000]),
])
def test_a_charts_scale_is_round_whole_numbers(largest: int, ticks: list[int]) -> None:
    from datetime import date

    from webapp.dashboard import charts

    frame = charts.frame("wide", [date(2026, 11, 25)], largest)
    assert [value for _, value in frame.y_ticks] == ticks
    assert frame.y_ticks[0][0] == frame.bottom and frame.y_ticks[-1][0] == frame.top
