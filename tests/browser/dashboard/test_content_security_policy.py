"""The dashboard under its Content-Security-Policy in Chromium: nothing is refused, and what
inline handlers and style attributes used to do still happens (dashboard.js)."""

from __future__ import annotations

import io
import json
import urllib.request
import uuid
from typing import Any

from PIL import Image

from tests.api.factories import template_body
from tests.browser.dashboard.conftest import PASSWORD, sign_in

# Every refusal of the policy, collected in the page (reset by each navigation).
_WATCH = """window.__refused = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__refused.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));"""


def _api(base: str, key: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/v1/{path}", data=json.dumps(body).encode(), method="POST", headers={
            "Authorization": f"Bearer {key}", "Content-Type": "application/json",
            "Idempotency-Key": str(uuid.uuid4())})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def _png_base64(size: tuple[int, int], color: str) -> str:
    import base64

    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, "PNG")
    return base64.b64encode(buf.getvalue()).decode()


def _refused(page: Any) -> list[str]:
    page.wait_for_load_state("networkidle")
    return page.evaluate("window.__refused")


def test_the_dashboard_works_under_its_policy(page_for: Any, live_server: Any) -> None:
    from webapp.services.accounts import organizations

    with live_server.app.app_context():
        created = organizations.create("Policy Co", "owner@policy.test", PASSWORD)
    base, key = live_server.url, created.keys["test"]
    strip = _api(base, key, "assets", {"slot": "strip", "data": _png_base64((375, 123), "#e63946")})
    template = _api(base, key, "templates", template_body(images={"strip": strip["id"]}))
    issued = _api(base, key, "passes", {"templateId": template["id"], "holderName": "Ada",
                                        "fieldValues": {"member": "Ada Lovelace"}})
    console: list[str] = []
    page = page_for("desktop")
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.add_init_script(_WATCH)
    sign_in(page, base, "owner@policy.test")
    assert _refused(page) == []  # the Overview, where sign-in lands
    page.goto(f"{base}/dashboard/test/passes")
    assert _refused(page) == []

    # The control: the watcher does see what the policy refuses.
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        page.evaluate("document.body.insertAdjacentHTML('beforeend', '<i style=\"x:y\"></i>')")
    page.wait_for_function("() => window.__refused.length === 1")
    page.evaluate("window.__refused = []")
    console.clear()

    # A row of the passes list opens its pass (was an onclick attribute).
    page.locator("#pass-rows tbody tr td").nth(1).click()
    page.wait_for_url(f"{base}/dashboard/test/passes/{issued['id']}")
    assert _refused(page) == []

    # The designer: the preview's colours (were style attributes) follow the form.
    page.goto(f"{base}/dashboard/test/templates/{template['id']}")
    card = page.locator("#preview .pp-apple")
    card.wait_for()
    assert "17, 34, 51" in card.evaluate("el => el.style.background")  # #112233
    # The strip loads under the policy (Google's hero; a generic Apple card shows no strip).
    assert page.locator("#preview .pp-google img.pp-hero").evaluate(
        "el => el.naturalWidth") == 375
    assert page.locator("#preview .pp-apple img.strip").count() == 0
    page.eval_on_selector("#f-color-background", "(el) => { el.value = '#7a1f5c';"
                          " el.dispatchEvent(new Event('input', {bubbles: true}));"
                          " el.dispatchEvent(new Event('change', {bubbles: true})); }")
    page.wait_for_function("() => document.querySelector('#preview .pp-apple').style.background"
                           ".includes('122, 31, 92')")
    # A field's binding shows the inputs of that binding (was an onchange attribute).
    row = page.locator(".fieldrow", has=page.locator("#f-secondary-0-binding"))
    page.select_option("#f-secondary-0-binding", "shared")
    assert row.get_attribute("data-binding") == "shared"
    assert _refused(page) == []

    # On a phone the menu button opens the sections (was an onclick attribute).
    phone = page_for("iphone")
    phone.add_init_script(_WATCH)
    sign_in(phone, base, "owner@policy.test")
    assert not phone.locator("nav.sidenav").is_visible()
    phone.get_by_role("button", name="Menu").click()
    assert phone.locator("nav.sidenav").is_visible()
    assert _refused(phone) == []
    assert not [text for text in console if "Content Security Policy" in text], console
