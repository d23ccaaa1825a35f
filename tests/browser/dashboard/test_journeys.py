"""The main dashboard journeys in Debian's Chromium, with screenshots to look at."""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image

from tests.browser.dashboard.conftest import sign_in
from tests.support.browser import screenshot


def _png(color: str, size: tuple[int, int] = (160, 50)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, "PNG")
    return buf.getvalue()


def test_sign_in_rejects_a_wrong_password_then_accepts(page_for: Any, live_server: Any,
                                                      owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    page.goto(f"{live_server.url}/dashboard/test/keys")
    page.wait_for_url(re.compile(r"/dashboard/login\?next="))
    page.fill("#email", owner["email"])
    page.fill("#password", "wrong password")
    page.click("button[type=submit]")
    assert page.locator("[role=alert]").inner_text() == "Incorrect email or password."
    screenshot(page, "dashboard-login-error")
    page.fill("#password", owner["password"])
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/dashboard/test/keys")
    assert page.locator(".envbar").inner_text().startswith("TEST")


def test_create_a_key_and_see_it_once(page_for: Any, live_server: Any,
                                      owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    sign_in(page, live_server.url)
    page.click("nav.sidenav >> text=API keys")
    page.fill("#key-name", "Ticket shop")
    page.click("text=Create key")
    secret = page.locator(".secret-once code").inner_text()
    assert re.fullmatch(r"svc_test_[0-9A-Za-z]{32}", secret)
    screenshot(page, "dashboard-key-created")
    page.reload()
    assert secret not in page.content()
    assert page.locator("td", has_text="Ticket shop").count() == 1
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("tr", has_text="Ticket shop").locator("button", has_text="Revoke").click()
    page.locator("tr", has_text="Ticket shop").locator(".badge", has_text="Revoked").wait_for()
    page.click("a.live")
    assert page.locator(".envbar").inner_text().startswith("LIVE")
    screenshot(page, "dashboard-keys-live")


def _design_template(page: Any, base: str) -> str:
    page.goto(f"{base}/dashboard/test/templates/new")
    page.fill("#f-name", "Summer Gala")
    page.click("text=Create and design")
    page.wait_for_selector("#design-form")
    # two fields: the starter's primary field renamed, and a new header field
    page.fill("#f-primary-0-label", "Guest")
    page.locator("#group-header").locator("button", has_text="+ Add field").click()
    page.wait_for_selector("#f-header-0-key")
    page.fill("#f-header-0-key", "gate")
    page.fill("#f-header-0-label", "Gate")
    page.select_option("#f-header-0-binding", "shared")
    page.fill("#f-header-0-value", "North")
    page.locator("#preview .apple-pass", has_text="North").wait_for()
    assert "Guest" in page.locator("#preview .apple-pass").inner_text()
    # the colour picker changes the preview's background
    page.eval_on_selector("#f-color-background", "(el) => { el.value = '#7a1f5c';"
                          " el.dispatchEvent(new Event('input', {bubbles: true}));"
                          " el.dispatchEvent(new Event('change', {bubbles: true})); }")
    page.wait_for_function("document.querySelector('#preview .apple-pass').style.background"
                           ".includes('122, 31, 92')")
    # an image: uploaded to assets, shown as a thumbnail and in the preview
    page.set_input_files("#file-logo", files=[{"name": "logo.png", "mimeType": "image/png",
                                               "buffer": _png("#ffd166")}])
    page.locator("#slot-logo img").wait_for()
    page.locator("#preview .apple-pass img.logo").wait_for()
    screenshot(page, "dashboard-designer")
    page.click("#save-design")
    page.locator(".flash.ok", has_text="Saved as revision 2").wait_for()
    return page.url.rsplit("/", 1)[1]


def test_design_issue_edit_and_void_a_pass(page_for: Any, live_server: Any,
                                           owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    sign_in(page, live_server.url)
    template_id = _design_template(page, live_server.url)
    page.goto(f"{live_server.url}/dashboard/test/passes/new?template={template_id}")
    page.fill("#f-holder_name", "Ada Lovelace")
    page.fill("#f-holder_email", "ada@example.com")
    page.fill("#f-fv-holder", "Ada L.")
    page.fill("#f-fv-number", "A-100")
    screenshot(page, "dashboard-issue-form")
    page.click("text=Issue pass")
    page.wait_for_url(re.compile(r"/dashboard/test/passes/pass_"))
    assert "issued" in page.locator(".flash.ok").inner_text()
    assert page.locator("#preview-card, .apple-pass").first.is_visible()
    page.fill("#e-fv-number", "B-200")
    page.check("input[name=notification_mode][value=notify]")
    page.click("text=Save values")
    page.locator(".flash.ok", has_text="notified").wait_for()
    assert "B-200" in page.locator(".timeline").inner_text()
    screenshot(page, "dashboard-pass-detail")
    page.click("text=Create link")
    link = page.locator("#download-links .secret-once code").inner_text()
    assert "/d/" in link
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("text=Void pass")
    page.locator(".badge.red", has_text="Voided").first.wait_for()
    screenshot(page, "dashboard-pass-voided")
    page.goto(f"{live_server.url}/dashboard/test/passes?q=ada")
    assert page.locator("#pass-rows tbody tr").count() == 1
    screenshot(page, "dashboard-passes-list")


def test_pages_on_a_phone(page_for: Any, live_server: Any, owner: dict[str, Any]) -> None:
    page = page_for("iphone")
    sign_in(page, live_server.url)
    screenshot(page, "dashboard-phone-passes")
    page.goto(f"{live_server.url}/dashboard/test/templates/new")
    page.fill("#f-name", "Phone card")
    page.click("text=Create and design")
    page.wait_for_selector("#design-form")
    screenshot(page, "dashboard-phone-designer")
    page.goto(f"{live_server.url}/dashboard/live/keys")
    screenshot(page, "dashboard-phone-keys-live")
    page.goto(f"{live_server.url}/dashboard/test/certificates")
    screenshot(page, "dashboard-phone-certificates")
