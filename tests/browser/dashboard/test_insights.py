"""Insights in Chromium (issue 19): the home page's funnel and charts, a template's insights
and a pass's timeline, drawn from facts recorded the real way: passes issued through /v1,
holder pages opened and wallet buttons tapped in the browser, Apple devices registering
through the Wallet web service, Google's signed save callbacks (the fake Google). Numbers
equal `GET /v1/insights`; axe finds no serious violation; a new organization sees how to
issue its first pass. Screenshots at 1280 px and 390 px in tests/browser/screenshots/."""

from __future__ import annotations

import csv
import io
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.api.factories import template_body
from tests.apple.conftest import apns_overrides, apple_overrides
from tests.browser.dashboard.conftest import PASSWORD, organization_key, sign_in
from tests.browser.test_accessibility import serious_violations
from tests.conftest import BASE_URL
from tests.google.conftest import (  # noqa: F401  (fixtures: a fake Google on loopback)
    demo_account,
    demo_account_file,
    fake_google,
    fake_google_server,
    google_overrides,
)
from tests.support.browser import LiveServer, api, call, screenshot, serving
from tests.support.fake_apns import FakeApns
from tests.support.fake_google import FakeGoogle
from webapp import clock

EMAIL, NEWCOMER = "owner@insights.test", "new@insights.test"


@pytest.fixture
def server(database: dict[str, Any], database_url: str, tmp_path: Path, fake_apns: FakeApns,
           fake_google: FakeGoogle, demo_account_file: str  # noqa: F811
           ) -> Iterator[LiveServer]:
    """The app at its public BASE_URL (so Google Wallet is offered), signing with the demo
    Apple identity, pushing to the fake APNs and writing to the fake Google, which
    delivers its save callbacks to this loopback port."""
    extra = {**google_overrides(fake_google, demo_account_file), **apple_overrides(),
             **apns_overrides(fake_apns), "BASE_URL": BASE_URL}
    with serving(database_url, tmp_path, extra) as live:
        fake_google.callback_base = (BASE_URL, live.url)
        yield live


@pytest.fixture
def key(server: LiveServer) -> str:
    """The test key of the organization whose owner signs in as EMAIL."""
    return organization_key(server, "Insights Gym", EMAIL)


class Phone:
    """An iPhone's Wallet: registers for a pass's updates through the web service."""

    def __init__(self, server: LiveServer, device: str):
        self.server, self.device = server, device

    def register(self, pass_id: str) -> None:
        from webapp.extensions import db
        from webapp.models import Pass
        from webapp.services.apple import passes

        with self.server.app.app_context():
            item = db.session.get(Pass, pass_id)
            pass_type, token = passes.pass_type_identifier(item), \
                passes.authentication_token(item)
        status, _ = call(self.server, "POST", f"/wallet/apple/v1/devices/{self.device}/"
                         f"registrations/{pass_type}/{pass_id}", {"pushToken": "ab" * 32},
                         {"Authorization": f"ApplePass {token}"})
        assert status == 201


def _holder_opens_and_adds(server: LiveServer, fake: FakeGoogle, item: dict[str, Any],
                           wallet: str | None) -> None:
    """The holder opens the pass's page and follows a wallet button; Google's save page
    then calls us back, an iPhone registers."""
    assert call(server, "GET", f"/p/{item['shortId']}")[0] == 200
    if wallet == "google":
        request = urllib.request.Request(f"{server.url}/p/{item['shortId']}/google")
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            opener.open(request)
        except urllib.error.HTTPError as redirect:
            assert redirect.code == 302
            assert fake.save(redirect.headers["Location"]).status_code == 200
    elif wallet == "apple":
        assert call(server, "GET", f"/p/{item['shortId']}/apple.pkpass")[0] == 200
        Phone(server, f"phone-{item['id'][-6:]}").register(item["id"])


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _history(server: LiveServer, key: str, fake: FakeGoogle) -> dict[str, Any]:
    """Two weeks of a gym's passes: issued, opened, added to either wallet, one removed
    from Google Wallet, two updates: one to Google Wallet, one to an iPhone."""
    gym = api(server, key, "POST", "templates", template_body(name="Gym membership"))
    pool = api(server, key, "POST", "templates", template_body(name="Pool pass"))
    start = clock.now()
    plan = [(13, ["apple", "google", None]), (11, ["google", None]), (9, ["apple", "apple"]),
            (8, [None, None, None]), (6, ["google", "apple", "google", None]),
            (4, ["apple"]), (2, ["google", "google", None]), (1, ["apple", None])]
    issued: list[dict[str, Any]] = []
    try:
        for days, wallets in plan:
            clock.set_now(lambda days=days: start - timedelta(days=days))
            for n, wallet in enumerate(wallets):
                template = pool if n == 2 else gym
                item = api(server, key, "POST", "passes", {
                    "templateId": template["id"], "holderName": f"Holder {len(issued)}",
                    "fieldValues": {"member": f"Holder {len(issued)}"}})
                _holder_opens_and_adds(server, fake, item, wallet)
                issued.append(item)
        clock.set_now(lambda: start - timedelta(days=3))
        fake.remove(f"{fake_object(issued[1])}")
        for item in (issued[0], issued[3]):  # on an iPhone; in Google Wallet
            api(server, key, "PATCH", f"passes/{item['id']}",
                {"fieldValues": {"member": "Ada L."}, "notificationMode": "notify"})
    finally:
        clock.set_now(None)
    return {"gym": gym, "pool": pool, "passes": issued}


def fake_object(item: dict[str, Any]) -> str:
    from tests.google.conftest import ISSUER

    return f"{ISSUER}.{item['id']}"


def _signed_in(page_for: Any, server: LiveServer, device: str, email: str = EMAIL) -> Any:
    page = page_for(device)
    sign_in(page, server.url, email)
    return page


def _funnel(page: Any) -> dict[str, int]:
    return {li.get_attribute("data-count"): int(li.locator(".funnel-value").inner_text())
            for li in page.locator(".funnel li").all()}


@pytest.mark.parametrize("device", ["desktop", "iphone"])
def test_the_home_page_draws_the_recorded_facts(page_for: Any, server: LiveServer, key: str,
                                                fake_google: FakeGoogle,  # noqa: F811
                                                device: str) -> None:
    _history(server, key, fake_google)
    answer = api(server, key, "GET", "insights")
    totals = answer["totals"]
    assert totals["issued"] == 20 and totals["added"] > 0 and totals["removed"] == 1
    page = _signed_in(page_for, server, device)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.goto(f"{server.url}/dashboard/test/")
    assert _funnel(page) == {name: totals[name] for name in (
        "issued", "pageViews", "addIntents", "added", "installed", "removed")}
    chart = page.locator("svg.chart-wide" if device == "desktop"
                         else "svg.chart-narrow.paired")
    assert chart.is_visible() and chart.bounding_box()["width"] > 300
    assert page.locator("svg.chart-narrow.paired" if device == "desktop"
                        else "svg.chart-wide").is_hidden()
    # one line per count, a point per day; the busiest day's issued point says its number
    assert chart.locator("polyline").count() == 5
    busiest = max(answer["series"], key=lambda row: row["issued"])
    assert chart.locator("circle title", has_text=f"{busiest['date']}: {busiest['issued']} "
                         "issued").count() == 1
    assert page.locator('svg[data-chart="deliveries"] rect').count() >= 1
    assert page.locator("#rate-install").inner_text() == \
        f"{round(answer['rates']['installRate'] * 100, 1):g}%"
    assert serious_violations(page) == []
    assert [text for text in console if "Content Security Policy" in text] == []
    screenshot(page, f"insights-home-{device}")
    page.click("#insights-numbers summary")
    table = page.locator("#insights-table tfoot td")
    assert [int(cell) for cell in table.all_inner_texts()] == [
        totals[c] for c in ("issued", "pageViews", "addIntents", "added", "removed",
                            "installed", "updatesSent", "updatesDelivered",
                            "updatesFailed", "balanceChanges", "signupPageViews", "signups",
                            "signupsAdded")]
    assert serious_violations(page) == []
    screenshot(page, f"insights-home-numbers-{device}")
    if device == "desktop":
        with page.expect_download() as download:
            page.click("text=Download CSV")
        rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
        assert [int(row["added"]) for row in rows] == \
            [row["added"] for row in answer["series"]] + [totals["added"]]
        page.select_option("#f-group", "template")
        page.click("button:text('Show')")
        page.wait_for_url("**groupBy=template**")
        assert page.locator(".groups .group-label").all_inner_texts() == [
            "Gym membership", "Pool pass"]
        screenshot(page, "insights-home-by-template")


@pytest.mark.parametrize("device", ["desktop", "iphone"])
def test_a_template_and_a_pass_show_their_own(page_for: Any, server: LiveServer, key: str,
                                              fake_google: FakeGoogle,  # noqa: F811
                                              device: str) -> None:
    made = _history(server, key, fake_google)
    pool = made["pool"]["id"]
    answer = api(server, key, "GET", f"insights?templateId={pool}")
    page = _signed_in(page_for, server, device)
    page.goto(f"{server.url}/dashboard/test/templates/{pool}")
    page.click(f"a[href='/dashboard/test/templates/{pool}/insights']")
    page.wait_for_url(f"**/templates/{pool}/insights")
    assert _funnel(page)["issued"] == answer["totals"]["issued"] == 4  # every third pass
    assert serious_violations(page) == []
    screenshot(page, f"insights-template-{device}")
    first = made["passes"][0]  # added to Apple Wallet, then updated
    page.goto(f"{server.url}/dashboard/test/passes/{first['id']}")
    activity = page.locator("#pass-activity li")
    kinds = [li.get_attribute("data-type") for li in activity.all()]
    assert kinds == ["updated", "added", "add_intent", "viewed", "issued"]
    assert activity.first.locator(".badge").all_inner_texts() == ["Apple: sent",
                                                                  "Google: not saved"]
    assert serious_violations(page, "#pass-activity") == []
    screenshot(page, f"insights-pass-timeline-{device}")


@pytest.mark.parametrize("device", ["desktop", "iphone"])
def test_a_new_organization_is_shown_how_to_issue_its_first_pass(page_for: Any,
                                                                 server: LiveServer,
                                                                 device: str) -> None:
    from webapp.services.accounts import organizations

    with server.app.app_context():
        organizations.create("Brand New Co", NEWCOMER, PASSWORD)
    page = _signed_in(page_for, server, device, NEWCOMER)
    page.goto(f"{server.url}/dashboard/test/")
    first = page.locator("#first-pass")
    assert first.locator("h2").inner_text() == "Issue your first test pass"
    assert page.locator("svg.chart").count() == 0
    assert serious_violations(page) == []
    screenshot(page, f"insights-first-pass-{device}")
    first.locator("a.btn.primary").click()
    page.wait_for_url(f"{server.url}/dashboard/test/passes/new")
