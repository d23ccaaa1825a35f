"""Messages and tags in Chromium (issue 33): composing a message with its audience size
and both wallets' previews, sending it to a pass whose Google notifications for the day are
spent (counted "without notification"), scheduling one and cancelling it, and editing a
pass's tags on its page. Screenshots in tests/browser/screenshots/."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.api.factories import template_body
from tests.browser.dashboard.conftest import organization_key, sign_in
from tests.browser.test_accessibility import serious_violations
from tests.google.conftest import (  # noqa: F401  (fixtures: a fake Google on loopback)
    demo_account,
    demo_account_file,
    fake_google,
    fake_google_server,
    google_overrides,
)
from tests.support.browser import WATCH_REFUSALS, LiveServer, api, no_refusals, screenshot, serving

EMAIL = "staff-{}@messages.test"  # one per test: the PostgreSQL lane keeps the users


@pytest.fixture
def server(database: dict[str, Any], database_url: str, tmp_path: Path,
           fake_google: Any,  # noqa: F811
           demo_account_file: str) -> Iterator[LiveServer]:  # noqa: F811
    with serving(database_url, tmp_path, google_overrides(fake_google, demo_account_file)
                 ) as live:
        yield live


def _setup(server: LiveServer, email: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    key = organization_key(server, "Pool Club", email)
    template = api(server, key, "POST", "templates", template_body(name="Pool members"))
    issued = api(server, key, "POST", "passes", {"templateId": template["id"],
                                                 "holderName": "Ada Lovelace",
                                                 "fieldValues": {"member": "Ada Lovelace"},
                                                 "tags": ["vip"]})
    return key, template, issued


def _saved_to_google(server: LiveServer, fake: Any, issued: dict[str, Any]) -> None:
    location = server.app.test_client().get(f"/p/{issued['shortId']}/google").headers["Location"]
    assert fake.save(location).status_code == 200


def test_compose_and_send_with_googles_budget_spent(page_for: Any, server: LiveServer,
                                                    fake_google: Any) -> None:  # noqa: F811
    email = EMAIL.format(uuid.uuid4().hex[:8])
    key, template, issued = _setup(server, email)
    _saved_to_google(server, fake_google, issued)
    for n in range(3):  # the pass's 3 notifications of the day
        api(server, key, "POST", "messages", {"header": "Earlier", "body": f"n{n}",
                                              "audience": {"passIds": [issued["id"]]}})
    page = page_for("desktop")
    page.add_init_script(WATCH_REFUSALS)
    sign_in(page, server.url, email)
    page.goto(f"{server.url}/dashboard/test/messages")
    page.select_option("#m-template", template["id"])
    page.fill("#m-tag", "VIP")
    page.locator("#audience-size", has_text="1 pass will get this message").wait_for()
    page.fill("#m-header", "Pool news")
    page.fill("#m-body", "The pool opens at 9 tomorrow. <b>Bring</b> a towel!")
    page.locator("#preview-google", has_text="Bring</b> a towel").wait_for()
    assert "Acme Gym · now" in page.locator("#preview-apple").inner_text()
    screenshot(page, "dashboard-messages-composer")
    page.get_by_role("button", name="Send message").click()
    page.locator(".flash", has_text="Sending to 1 pass.").wait_for()
    row = page.locator("#messages-list tbody tr").first
    google = row.locator("[data-wallet=google]")
    google.filter(has_text="1 without notification").wait_for()
    assert "added without notification" in google.inner_text()
    assert "0 delivered" in google.inner_text()
    assert "Sent" in row.inner_text()
    no_refusals(page)
    assert serious_violations(page) == []
    screenshot(page, "dashboard-messages-sent")
    [newest, *_] = api(server, key, "GET", "messages")["data"]
    assert newest["delivery"]["google"]["withoutNotification"] == 1


def test_schedule_and_cancel(page_for: Any, server: LiveServer) -> None:
    email = EMAIL.format(uuid.uuid4().hex[:8])
    key, template, _issued = _setup(server, email)
    page = page_for("desktop", timezone_id="Europe/Berlin")
    page.add_init_script(WATCH_REFUSALS)
    sign_in(page, server.url, email)
    page.goto(f"{server.url}/dashboard/test/messages")
    page.select_option("#m-template", template["id"])
    page.fill("#m-header", "Tomorrow")
    page.fill("#m-body", "Doors at 8.")
    page.check("input[name=when][value=later]")
    local = (datetime.now() + timedelta(days=1)).replace(second=0, microsecond=0)
    page.fill("#m-send-at", local.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Send message").click()
    page.locator(".flash", has_text="Scheduled.").wait_for()
    row = page.locator("#messages-list tbody tr").first
    assert "Scheduled" in row.inner_text()
    [message] = api(server, key, "GET", "messages")["data"]
    assert message["status"] == "scheduled"
    # Read in the browser's time zone, which the page sends along.
    berlin = local.replace(tzinfo=ZoneInfo("Europe/Berlin")).astimezone(UTC)
    assert message["sendAt"] == berlin.strftime("%Y-%m-%dT%H:%M:00.000Z")
    screenshot(page, "dashboard-messages-scheduled")
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Cancel").click()
    page.locator(".flash", has_text="The scheduled message is canceled.").wait_for()
    assert "Canceled" in page.locator("#messages-list tbody tr").first.inner_text()
    assert api(server, key, "GET", f"messages/{message['id']}")["status"] == "canceled"
    no_refusals(page)
    screenshot(page, "dashboard-messages-canceled")


def test_edit_tags_on_the_pass_page(page_for: Any, server: LiveServer) -> None:
    email = EMAIL.format(uuid.uuid4().hex[:8])
    key, _template, issued = _setup(server, email)
    page = page_for("desktop")
    page.add_init_script(WATCH_REFUSALS)
    sign_in(page, server.url, email)
    page.goto(f"{server.url}/dashboard/test/passes/{issued['id']}")
    card = page.locator("#pass-tags")
    assert card.locator("#f-tags").input_value() == "vip"
    card.locator("#f-tags").fill("vip, Gold has space!")
    card.get_by_role("button", name="Save tags").click()
    page.locator("#tags-problem").wait_for()
    screenshot(page, "dashboard-pass-tags-refused")
    page.locator("#f-tags").fill("vip, Gold season-2027")
    page.get_by_role("button", name="Save tags").click()
    page.locator("#tags-current", has_text="season-2027").wait_for()
    assert page.locator("#tags-current .badge").all_inner_texts() == [
        "vip", "gold", "season-2027"]
    assert api(server, key, "GET", f"passes/{issued['id']}")["tags"] == [
        "vip", "gold", "season-2027"]
    no_refusals(page)
    page.locator("#pass-tags").scroll_into_view_if_needed()
    screenshot(page, "dashboard-pass-tags")


def test_the_messages_page_fits_a_phone(page_for: Any, server: LiveServer) -> None:
    from tests.browser.dashboard.test_phone_width import _fits

    email = EMAIL.format(uuid.uuid4().hex[:8])
    key, template, issued = _setup(server, email)
    api(server, key, "POST", "messages", {
        "header": "A long title for a phone", "body": "word " * 90,
        "audience": {"passIds": [issued["id"]]}})
    page = page_for("iphone")
    page.add_init_script(WATCH_REFUSALS)
    sign_in(page, server.url, email)
    page.goto(f"{server.url}/dashboard/test/messages")
    page.select_option("#m-template", template["id"])
    page.locator("#audience-size", has_text="1 pass will get this message").wait_for()
    _fits(page, "dashboard-messages-phone")
    no_refusals(page)
    assert serious_violations(page) == []
