"""Issue 32 as staff see it: a loyalty card designed in the dashboard (the preview shows its
points in both wallets), and its pass page's Points card moving the balance. Screenshots in
tests/browser/screenshots/."""

from __future__ import annotations

from typing import Any

from tests.browser.dashboard.conftest import sign_in
from tests.browser.test_accessibility import serious_violations
from tests.support.browser import screenshot


def test_a_loyalty_card_designed_then_its_points_moved(page_for: Any, live_server: Any,
                                                        owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/dashboard/test/templates/new")
    page.fill("#f-name", "Bean Club")
    page.check("input[name=type][value=loyalty]")
    page.click("text=Create and design")
    page.wait_for_selector("#design-form")
    page.fill("#f-loyalty-programName", "Bean Club")
    page.fill("#f-loyalty-pointsLabel", "Beans")
    page.click("#save-design")
    page.locator(".saved-note", has_text="revision 2").wait_for()
    preview = page.locator("#preview").inner_text()
    assert "Beans" in preview and "250" in preview  # the sample pass's points
    screenshot(page, "designer-loyalty")
    assert serious_violations(page) == []

    page.goto(f"{live_server.url}/dashboard/test/passes/new")
    page.wait_for_selector("#f-fv-holder")  # the only template: chosen already
    page.fill("#f-fv-holder", "Ada Lovelace")
    page.click("#issue-form button[type=submit]")
    page.wait_for_selector("#balance")
    page.fill("#b-amount", "40")
    page.fill("#b-reason", "coffee")
    page.click("#balance button[value=earn]")
    page.locator("[data-testid=balance]", has_text="40").wait_for()
    assert "coffee" in page.locator("#balance-history").inner_text()
    page.fill("#b-amount", "100")
    page.click("#balance button[value=spend]")
    page.locator("#balance .flash.bad", has_text="cannot spend 100").wait_for()
    screenshot(page, "pass-page-loyalty")
    assert serious_violations(page) == []
