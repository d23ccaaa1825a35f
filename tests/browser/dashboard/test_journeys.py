"""The main dashboard journeys in Debian's Chromium, with screenshots to look at."""

from __future__ import annotations

import io
import re
import shutil
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
    page.wait_for_url("**/dashboard/live/**")  # else the test page's bar may still be read
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
    page.locator("#preview .pp-apple", has_text="North").wait_for()
    assert "Guest" in page.locator("#preview .pp-apple").inner_text()
    # the colour picker changes the preview's background
    page.eval_on_selector("#f-color-background", "(el) => { el.value = '#7a1f5c';"
                          " el.dispatchEvent(new Event('input', {bubbles: true}));"
                          " el.dispatchEvent(new Event('change', {bubbles: true})); }")
    page.wait_for_function("() => document.querySelector('#preview .pp-apple').style.background"
                           ".includes('122, 31, 92')")
    # an image: uploaded to assets, shown as a thumbnail and in the preview
    page.set_input_files("#file-logo", files=[{"name": "logo.png", "mimeType": "image/png",
                                               "buffer": _png("#ffd166")}])
    page.locator("#slot-logo img").wait_for()
    page.locator("#preview .pp-apple img.logo").wait_for()
    screenshot(page, "dashboard-designer")
    page.click("#save-design")
    page.locator(".saved-note", has_text="Saved as revision 2").wait_for()
    return page.url.rsplit("/", 1)[1]


def test_design_issue_edit_and_void_a_pass(page_for: Any, live_server: Any,
                                           owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    sign_in(page, live_server.url)
    template_id = _design_template(page, live_server.url)
    page.goto(f"{live_server.url}/dashboard/test/passes/new?template={template_id}")
    page.fill("#f-holder_email", "ada@example.com")
    page.fill("#f-fv-holder", "Ada L.")  # the template's name field is the holder's name
    page.fill("#f-fv-number", "A-100")
    screenshot(page, "dashboard-issue-form")
    page.click("text=Issue pass")
    page.wait_for_url(re.compile(r"/dashboard/test/passes/pass_"))
    assert "issued" in page.locator(".flash.ok").inner_text()
    assert page.locator("#preview-card, .pp-apple").first.is_visible()
    page.fill("#e-fv-number", "B-200")
    page.check("input[name=notification_mode][value=notify]")
    # click once the notice above the button has been redrawn (it moves the button)
    page.locator("#update-notice li", has_text="Apple Wallet").first.wait_for()
    page.wait_for_load_state("networkidle")
    page.click("text=Save values")
    page.locator(".flash.ok", has_text="Saved 1 change.").wait_for()
    assert page.locator(".flash.ok", has_text="Apple Wallet: no iPhone has this pass").count() == 1
    assert "B-200" in page.locator(".timeline:not(.activity)").inner_text()
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


PHONE_WIDTH = 390  # the "iphone" device's viewport, in CSS pixels

# Visible elements whose box reaches past the left or right edge of the viewport: what a
# phone would scroll sideways for, or (in a box that hides its overflow) cut off. Inside a
# box that scrolls sideways is fine.
_STICKING_OUT = """() => [...document.querySelectorAll('body *')].filter((el) => {
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden')
    return false;
  if (box.right <= innerWidth + 0.5 && box.left >= -0.5) return false;
  for (let up = el.parentElement; up; up = up.parentElement)
    if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) return false;
  return true;
}).map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
       + (el.className && typeof el.className === 'string' ? '.' + el.className.trim()
          .replace(/\\s+/g, '.') : ''))"""


def _on_the_phone(page: Any, name: str, heading: str, env: str = "TEST") -> None:
    """The page fits the phone's width (no sideways scrolling, nothing cut off at the
    sides), shows its heading and environment, and its menu is a button; screenshots in
    tests/browser/screenshots/ and /tmp/phone_<name>.png."""
    page.wait_for_load_state("networkidle")
    assert page.evaluate("innerWidth") == PHONE_WIDTH
    widths = page.evaluate("[document.documentElement.scrollWidth, document.body.scrollWidth]")
    assert max(widths) <= PHONE_WIDTH, (name, widths)
    assert page.evaluate(_STICKING_OUT) == [], name
    assert page.locator(".envbar").inner_text().startswith(env)
    assert page.get_by_role("heading", level=1).first.inner_text().startswith(heading)
    assert page.get_by_role("heading", level=1).first.is_visible()
    # The sections menu is folded away behind a button at the top.
    assert not page.locator("nav.sidenav").is_visible()
    toggle = page.get_by_role("button", name="Menu")
    assert toggle.is_visible()
    box = toggle.bounding_box()
    assert box["y"] < 200 and box["x"] + box["width"] <= PHONE_WIDTH, box
    assert page.locator(".envswitch").is_visible()
    assert page.get_by_role("button", name="Sign out").is_visible()
    _phone_screenshot(page, name)


def _phone_screenshot(page: Any, name: str) -> None:
    """In tests/browser/screenshots/ with the others, and as /tmp/phone_<name>.png."""
    shutil.copyfile(screenshot(page, f"dashboard-phone-{name}"), f"/tmp/phone_{name}.png")


def _open_menu_and_go(page: Any, section: str) -> None:
    """Open the menu with the button; every section is there, inside the screen."""
    page.get_by_role("button", name="Menu").click()
    menu = page.locator("nav.sidenav")
    assert menu.is_visible()
    links = menu.get_by_role("link")
    assert links.count() >= 5
    for index in range(links.count()):
        link = links.nth(index)
        box = link.bounding_box()
        assert link.is_visible() and box is not None, link.inner_text()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE_WIDTH, (link.inner_text(), box)
        assert box["height"] >= 24, (link.inner_text(), box)  # big enough to tap
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    _phone_screenshot(page, "menu")
    menu.get_by_role("link", name=section, exact=True).click()


def test_pages_on_a_phone(page_for: Any, live_server: Any, owner: dict[str, Any]) -> None:
    page = page_for("iphone")
    sign_in(page, live_server.url)
    _on_the_phone(page, "overview", "Overview")
    page.goto(f"{live_server.url}/dashboard/test/passes")
    _on_the_phone(page, "passes", "Passes")
    _open_menu_and_go(page, "Templates")
    page.wait_for_url(f"{live_server.url}/dashboard/test/templates")
    _on_the_phone(page, "templates", "Templates")
    page.goto(f"{live_server.url}/dashboard/test/templates/new")
    page.fill("#f-name", "Phone card")
    page.click("text=Create and design")
    page.wait_for_selector("#design-form")
    _on_the_phone(page, "designer", "Phone card")
    # the preview comes first on a phone, then the form with its save button
    preview, form = page.locator("#preview"), page.locator("#design-form")
    assert preview.is_visible() and form.is_visible()
    assert preview.bounding_box()["y"] < form.bounding_box()["y"]
    page.locator("#save-design").scroll_into_view_if_needed()
    assert page.locator("#save-design").is_visible()
    page.goto(f"{live_server.url}/dashboard/live/keys")
    _on_the_phone(page, "keys-live", "API keys", env="LIVE")
    assert page.locator("#key-name").is_visible()
    assert page.get_by_role("button", name="Create key").is_visible()
    page.goto(f"{live_server.url}/dashboard/test/certificates")
    _on_the_phone(page, "certificates", "Certificates")
