"""Small things staff expect, clicked through in Chromium: a webhook endpoint's "Send test
event", the pass page's copyable permanent link, the printable QR code, and the revision
history's diff and restore. Screenshots in tests/browser/screenshots/."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from PIL import Image
from standardwebhooks.webhooks import Webhook

from tests.api.factories import definition, template_body
from tests.browser.dashboard.conftest import organization_key, sign_in
from tests.support.browser import WATCH_REFUSALS, LiveServer, api, no_refusals, screenshot, serving
from tests.support.receiver import Receiver

EMAIL = "staff@tools.test"


@pytest.fixture
def server(database: dict[str, Any], database_url: str, tmp_path: Path
           ) -> Iterator[LiveServer]:
    """The app, allowed to deliver webhooks to a receiver on this machine."""
    with serving(database_url, tmp_path, {"WEBHOOKS_ALLOW_PRIVATE_NETWORKS": True}) as live:
        yield live


@pytest.fixture
def key(server: LiveServer) -> str:
    """An organization whose owner signs in as EMAIL; its test API key."""
    return organization_key(server, "Tools Co", EMAIL)


def _page(page_for: Any, server: LiveServer, device: str = "desktop") -> Any:
    page = page_for(device)
    page.add_init_script(WATCH_REFUSALS)
    sign_in(page, server.url, EMAIL)
    return page


def test_send_a_test_event_and_see_its_delivery(page_for: Any, server: LiveServer, key: str,
                                                receiver: Receiver) -> None:
    page = _page(page_for, server)
    page.goto(f"{server.url}/dashboard/test/webhooks")
    page.fill("#wh-url", receiver.url)
    page.fill("#wh-description", "CRM sync")
    page.click("text=Add endpoint")
    secret = page.locator(".secret-once code").inner_text()
    page.click(f"a:has-text('{receiver.url}')")
    page.wait_for_url(f"{server.url}/dashboard/test/webhooks/we_*")
    assert page.locator("#deliveries").inner_text().count("No deliveries yet.") == 1
    page.get_by_role("button", name="Send test event").click()
    page.locator(".flash.ok", has_text="A test event (webhook_endpoint.test) is on its way").\
        wait_for()
    row = page.locator("#deliveries tbody tr", has_text="webhook_endpoint.test")
    # delivered by a background job: the log reloads itself until the attempt shows
    row.locator(".badge", has_text="succeeded").wait_for(timeout=15000)
    assert "HTTP 200" in row.inner_text()
    [request] = receiver.wait_for(1)
    payload = Webhook(secret).verify(request.body, request.headers)
    assert payload["type"] == "webhook_endpoint.test"
    assert payload["id"] in row.inner_text()
    no_refusals(page)
    screenshot(page, "dashboard-webhook-test-event")
    # the same on a phone
    phone = _page(page_for, server, "iphone")
    phone.goto(page.url)
    phone.get_by_role("button", name="Send test event").click()
    phone.locator("#deliveries tbody tr", has_text="webhook_endpoint.test").nth(1).wait_for()
    screenshot(phone, "dashboard-phone-webhook-test-event")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def _issued(server: LiveServer, key: str) -> dict[str, Any]:
    template = api(server, key, "POST", "templates", template_body(name="Gym membership"))
    return api(server, key, "POST", "passes", {"templateId": template["id"],
                                               "holderName": "Ada Lovelace",
                                               "fieldValues": {"member": "Ada"}})


def test_copy_the_permanent_link(page_for: Any, server: LiveServer, key: str) -> None:
    issued = _issued(server, key)
    page = _page(page_for, server)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{server.url}/dashboard/test/passes/{issued['id']}")
    link = page.locator("#permanent-link a")
    assert link.get_attribute("href") == issued["distributionUrl"]
    assert link.inner_text() == issued["distributionUrl"]
    button = page.locator("#permanent-link").get_by_role("button", name="Copy link")
    button.click()
    page.locator("#permanent-link button", has_text="Copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == issued["distributionUrl"]
    page.locator("#permanent-link button", has_text="Copy link").wait_for()
    screenshot(page, "dashboard-pass-permanent-link")
    # the link opens the holder's page in a new tab
    with page.context.expect_page() as opened:
        link.click()
    holder = opened.value
    holder.wait_for_load_state()
    assert holder.url == issued["distributionUrl"]
    no_refusals(page)


def _decode(png: bytes) -> list[str]:
    return [found.text for found in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def test_print_the_qr_code_of_a_pass(page_for: Any, server: LiveServer, key: str) -> None:
    issued = _issued(server, key)
    page = _page(page_for, server)
    page.goto(f"{server.url}/dashboard/test/passes/{issued['id']}")
    page.get_by_role("link", name="Printable QR code").click()
    page.wait_for_url(f"{server.url}/dashboard/test/passes/{issued['id']}/qr")
    sheet = page.locator("#qr-sheet")
    assert "Ada Lovelace" in sheet.inner_text() and "Gym membership" in sheet.inner_text()
    qr = page.get_by_role("img", name="QR code of the pass's link")
    assert _decode(qr.screenshot()) == [issued["distributionUrl"]]
    box = qr.bounding_box()
    assert box["width"] >= 250 and abs(box["width"] - box["height"]) < 1, box
    no_refusals(page)
    screenshot(page, "dashboard-pass-qr")
    # "Print" opens the browser's print dialog (stubbed here: headless has none)
    page.evaluate("window.print = () => { window.__printed = true; }")
    page.get_by_role("button", name="Print").click()
    assert page.evaluate("window.__printed") is True
    # on paper: the sheet alone, the code still readable
    page.emulate_media(media="print")
    for hidden in (".topbar", ".sidenav", ".envbar", ".crumbs", "[data-print]"):
        assert not page.locator(hidden).first.is_visible(), hidden
    assert _decode(page.screenshot(full_page=True)) == [issued["distributionUrl"]]
    screenshot(page, "dashboard-pass-qr-print")
    page.emulate_media(media="screen")
    # the SVG file downloads and reads the same
    with page.expect_download() as download:
        page.get_by_role("link", name="Download SVG").click()
    assert download.value.suggested_filename == f"pass-{issued['shortId']}-qr.svg"
    svg = Path(download.value.path()).read_text()
    svg_page = page.context.new_page()
    svg_page.set_content(f"<body style='margin:0'>{svg}</body>")
    assert _decode(svg_page.locator("svg").screenshot()) == [issued["distributionUrl"]]


def test_see_what_changed_and_restore_a_revision(page_for: Any, server: LiveServer,
                                                 key: str) -> None:
    template = api(server, key, "POST", "templates", template_body(name="Gym"))
    second = definition(description="Gym card")
    second["colors"]["background"] = "#7a1f5c"
    second["config"]["fields"]["primary"][0]["label"] = "Guest"
    second["config"]["fields"]["secondary"].append(
        {"key": "gate", "label": "Gate", "binding": "shared", "value": "North"})
    api(server, key, "PATCH", f"templates/{template['id']}",
        {"expectedRevision": 1, "definition": second})
    page = _page(page_for, server)
    page.goto(f"{server.url}/dashboard/test/templates/{template['id']}")
    page.get_by_role("link", name="History").first.click()
    page.wait_for_url(f"{server.url}/dashboard/test/templates/{template['id']}/revisions*")
    changes = page.locator("#changes")
    assert changes.get_by_role("heading", level=2).inner_text() == \
        "Changes from revision 1 to revision 2"
    text = changes.locator("table").inner_text()
    for words in ("Description", "Gym membership", "Gym card", "#7a1f5c", "Guest (member)",
                  "Gate (gate)", "added"):
        assert words in text, words
    # colours are drawn as swatches, painted by dashboard.js (no style attributes)
    swatch = changes.locator(".swatch[data-background='#7a1f5c']")
    assert swatch.evaluate("(el) => getComputedStyle(el).backgroundColor") == \
        "rgb(122, 31, 92)"
    no_refusals(page)
    screenshot(page, "dashboard-template-history-diff")
    # look at revision 1 and restore it
    page.get_by_role("link", name="Revision 1", exact=True).click()
    page.wait_for_url("**revision=1")
    assert "Revision 1 is the first design" in changes.inner_text()
    page.on("dialog", lambda dialog: dialog.accept())
    changes.get_by_role("button", name="Restore revision 1").click()
    page.locator(".flash.ok", has_text="Revision 1 restored: its design is now revision 3.").\
        wait_for()
    assert changes.get_by_role("heading", level=2).inner_text() == \
        "Changes from revision 2 to revision 3"
    assert "Gym card" in changes.inner_text()
    current = page.locator("tr.shown")
    assert current.inner_text().startswith("Revision 3") and "current" in current.inner_text()
    got = api(server, key, "GET", f"templates/{template['id']}")
    assert got["revision"] == 3 and got["definition"] == definition()
    # compare any two revisions from the list
    page.select_option("#compare", "1")
    page.wait_for_url("**compare=1")
    assert "The two designs are the same." in changes.inner_text()
    screenshot(page, "dashboard-template-history-restored")
    phone = _page(page_for, server, "iphone")
    phone.goto(f"{server.url}/dashboard/test/templates/{template['id']}/revisions?revision=2")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "dashboard-phone-template-history")
