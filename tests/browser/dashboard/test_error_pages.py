"""An unknown dashboard address in Debian's Chromium: the dashboard's own page, with a
screenshot to look at (/tmp/dash_404.png)."""

from __future__ import annotations

from typing import Any

from tests.browser.dashboard.conftest import sign_in


def test_unknown_address_is_the_dashboard_page(page_for: Any, live_server: Any,
                                               owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    sign_in(page, live_server.url)
    response = page.goto(f"{live_server.url}/dashboard/test/no-such-page")
    assert response.status == 404
    assert page.title() == "Page not found · Journey Events"
    assert page.locator(".envbar").inner_text().startswith("TEST")
    assert page.locator("nav.sidenav a", has_text="API keys").is_visible()
    card = page.locator("[role=alert]")
    assert card.locator("h1").inner_text() == "Page not found"
    assert "/dashboard/test/no-such-page" in card.inner_text()
    # the stylesheet applied: the card is a white box, not an unstyled page
    assert card.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(255, 255, 255)"
    page.screenshot(path="/tmp/dash_404.png", full_page=True)
    page.click("text=Back to the dashboard")
    page.wait_for_url(f"{live_server.url}/dashboard/test/passes")

    signed_out = page_for("desktop")
    response = signed_out.goto(f"{live_server.url}/dashboard/no-such-page")
    assert response.status == 404
    assert signed_out.title() == "Page not found · Pass service"
    assert signed_out.locator("nav.sidenav").count() == 0
    signed_out.screenshot(path="/tmp/dash_404_signed_out.png", full_page=True)
    signed_out.click("text=Sign in")
    signed_out.wait_for_url(f"{live_server.url}/dashboard/login")
