"""Going live, clicked through in Chromium: Live without credentials gives one next step,
the certificates page walks through getting them and takes a .p12 or PEM files as two
forms. Screenshots in tests/browser/screenshots/."""

from __future__ import annotations

from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

from tests.browser.dashboard.conftest import sign_in
from tests.support import pki as test_pki
from tests.support.browser import screenshot

_WATCH = """window.__refused = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__refused.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));"""


def _file(name: str, data: bytes) -> dict[str, Any]:
    return {"name": name, "mimeType": "application/octet-stream", "buffer": data}


def test_from_live_without_credentials_to_a_certificate(page_for: Any, live_server: Any,
                                                        owner: dict[str, Any]) -> None:
    base = live_server.url
    page = page_for("desktop")
    page.add_init_script(_WATCH)
    sign_in(page, base)
    page.goto(f"{base}/dashboard/test/passes")
    page.click("a.live")
    page.wait_for_url(f"{base}/dashboard/live/passes")
    notice = page.locator("#live-setup")
    assert page.get_by_role("region", name="Live is not set up yet").is_visible()
    assert page.get_by_role("link", name="Issue a pass").count() == 0
    screenshot(page, "dashboard-live-not-set-up")
    for section in ("Templates", "Webhooks"):  # the same single step everywhere in Live
        page.click(f"nav.sidenav >> text={section}")
        page.wait_for_url(f"{base}/dashboard/live/{section.lower()}")  # loaded, not begun
        assert page.locator("#live-setup").count() == 1
    notice = page.locator("#live-setup")
    notice.get_by_role("link", name="Next step: add a certificate or issuer").click()
    page.wait_for_url(f"{base}/dashboard/live/certificates")
    assert page.locator("#live-setup").count() == 0
    # both guides are open while nothing is added, each an ordered walk
    apple_guide, google_guide = page.locator("#apple-guide"), page.locator("#google-guide")
    assert apple_guide.get_attribute("open") is not None
    assert google_guide.get_attribute("open") is not None
    assert apple_guide.locator("ol.steps > li").count() == 6
    assert google_guide.locator("ol.steps > li").count() == 6
    assert apple_guide.get_by_role("link", name="apple.com/certificateauthority").is_visible()
    assert google_guide.get_by_role("link", name="Google Pay & Wallet Console").is_visible()
    screenshot(page, "dashboard-certificates-guide")
    # the two ways to upload sit side by side, each a form of its own
    p12, pem = page.locator("#apple-p12"), page.locator("#apple-pem")
    left, right = p12.bounding_box(), pem.bounding_box()
    assert left["x"] + left["width"] <= right["x"] and abs(left["y"] - right["y"]) < 2
    assert p12.get_by_role("heading", name="A .p12 file").is_visible()
    assert pem.get_by_role("heading", name="PEM files").is_visible()
    # a binary .cer in the PEM form: the answer says how to convert it, in that form
    pki = test_pki.make()
    der = x509.load_pem_x509_certificate(pki.cert_pem).public_bytes(Encoding.DER)
    pem.locator("input[name=certificate]").set_input_files(files=[_file("pass.cer", der)])
    pem.locator("input[name=key]").set_input_files(files=[_file("pass.key", pki.key_pem)])
    pem.get_by_role("button", name="Upload PEM files").click()
    error = page.locator("#apple-pem #apple-error")
    error.wait_for()
    assert "openssl x509 -inform der -in pass.cer -out pass.pem" in error.inner_text()
    assert page.locator("#apple-p12 #apple-error").count() == 0
    screenshot(page, "dashboard-certificates-pem-error")
    # the .p12 form
    p12 = page.locator("#apple-p12")
    p12.locator("input[name=p12]").set_input_files(files=[_file("pass.p12", pki.p12)])
    p12.locator("input[name=password]").fill("secret")
    p12.get_by_role("button", name="Upload .p12").click()
    page.locator(".flash.ok", has_text=f"Certificate for {test_pki.PASS_TYPE} added.").wait_for()
    assert page.locator("#apple-guide").get_attribute("open") is None
    assert page.locator("#google-guide").get_attribute("open") is not None
    page.locator("#apple-guide summary").click()  # still there when wanted
    assert page.locator("#apple-guide ol.steps").is_visible()
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__refused") == []
    # Live works now: the step is gone and issuing is offered
    page.click("nav.sidenav >> text=Passes")
    page.wait_for_url(f"{base}/dashboard/live/passes")
    assert page.locator("#live-setup").count() == 0
    assert page.get_by_role("link", name="Issue a pass").is_visible()


def test_the_certificates_page_on_a_phone(page_for: Any, live_server: Any,
                                          owner: dict[str, Any]) -> None:
    page = page_for("iphone")
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/dashboard/live/certificates")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    p12, pem = page.locator("#apple-p12").bounding_box(), page.locator("#apple-pem").bounding_box()
    assert p12["y"] + p12["height"] <= pem["y"]  # stacked, one after the other
    screenshot(page, "dashboard-phone-certificates-guide")
    page.goto(f"{live_server.url}/dashboard/live/passes")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("#live-setup").is_visible()
    screenshot(page, "dashboard-phone-live-not-set-up")
