"""Issue 31 as a person sees it: the designer's Check-in section on a phone (no sideways
scrolling), and the scanner's environment band. Screenshots in tests/browser/screenshots/."""

from __future__ import annotations

from typing import Any

from tests.browser.dashboard.conftest import sign_in
from tests.browser.dashboard.test_forms_and_designer import _new_template
from tests.browser.test_accessibility import serious_violations
from tests.support.browser import screenshot


def test_the_designer_s_check_in_section_on_a_phone(page_for: Any, live_server: Any,
                                                    owner: dict[str, Any]) -> None:
    page = page_for("iphone")
    sign_in(page, live_server.url)
    _new_template(page, live_server.url)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#checkin").scroll_into_view_if_needed()
    page.check("input[name=redemption-mode][value=single]")
    page.check("input[name=redemption-void]")
    screenshot(page, "designer-check-in-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#save-design")
    page.locator(".saved-note", has_text="revision 2").wait_for()
    page.locator("#preview details.pp-back summary").click()
    assert "Checked in" in page.locator("#preview details.pp-back").inner_text()
    assert serious_violations(page) == []


def test_the_scanner_says_which_environment_it_scans(page_for: Any, live_server: Any,
                                                     owner: dict[str, Any]) -> None:
    page = page_for("iphone")
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/dashboard/scan")
    page.wait_for_url(f"{live_server.url}/dashboard/test/scan")
    assert page.locator("#scan-env").inner_text().split() == [
        "Scanning", "TEST", "passes", "Switch", "to", "live"]
    screenshot(page, "scanner-environment-test")
    assert serious_violations(page) == []
    page.click("text=Switch to live")
    page.wait_for_url(f"{live_server.url}/dashboard/live/scan")
    screenshot(page, "scanner-environment-live")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
