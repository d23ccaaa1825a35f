"""The holder pages in Debian's Chromium: iPhone, Android phone and desktop, in English and
German. Screenshots land in tests/browser/screenshots/ (not committed)."""

from __future__ import annotations

import copy
import io
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.api.factories import template_body
from tests.conftest import BASE_URL
from tests.support.browser import screenshot
from webapp import clock

LABELS = {
    "en": {"apple": "Add to Apple Wallet", "google": "Add to Google Wallet",
           "scan": "Scan with your phone", "voided": "This pass is no longer valid",
           "expired": "This link has expired"},
    "de": {"apple": "Zu Apple Wallet hinzufügen", "google": "Zu Google Wallet hinzufügen",
           "scan": "Mit dem Smartphone scannen", "voided": "Dieser Pass ist nicht mehr gültig",
           "expired": "Dieser Link ist abgelaufen"},
}
ORDER = {"iphone": ["apple", "google"], "android": ["google", "apple"],
         "desktop": ["apple", "google"]}


def membership(issuer: Any) -> dict[str, Any]:
    """A rich generic template: logo, strip, header, all field groups, QR code, back."""
    body = template_body(
        description="Gold membership", organizationName="Acme Gym",
        colors={"background": "#1d3557", "foreground": "#f1faee", "label": "#a8dadc"},
        images={"logo": issuer.asset("logo", 160, 50, "#e63946"),
                "strip": issuer.asset("strip", 750, 246, "#457b9d")},
        barcode={"format": "qr", "altText": "Member {{shortId}}"})
    fields = body["definition"]["config"]["fields"]
    fields["header"] = [{"key": "tier", "label": "Tier", "binding": "shared", "value": "Gold"}]
    fields["secondary"].insert(0, {"key": "since", "label": "Member since",
                                   "binding": "perPass", "format": "date"})
    fields["auxiliary"] = [{"key": "points", "label": "Points", "binding": "perPass",
                            "format": "number"}]
    fields["back"] = [{"key": "terms", "label": "Terms", "binding": "shared",
                       "value": "Show this pass at the front desk."}]
    return body


def _issue_rich(issuer: Any, **extra: Any) -> dict[str, Any]:
    return issuer.issue(membership(issuer), holderName="Ada Lovelace",
                        fieldValues={"member": "Ada Lovelace", "since": "2024-03-14",
                                     "points": 12840}, **extra)


def _same_origin(requests: list[Any], origin: str) -> None:
    foreign = [r.url for r in requests
               if f"{urlsplit(r.url).scheme}://{urlsplit(r.url).netloc}" != origin]
    assert foreign == [], foreign


def _decode(png: bytes) -> list[Any]:
    import zxingcpp
    from PIL import Image

    return zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("device", ["iphone", "android", "desktop"])
def test_buttons_in_the_device_order(live_server, page_for, issuer, recorded, device: str,
                                     lang: str) -> None:
    item = _issue_rich(issuer)
    page = page_for(device, locale={"en": "en-US", "de": "de-DE"}[lang])
    requests = recorded(page)
    response = page.goto(f"{live_server.url}/p/{item['shortId']}")
    assert response.status == 200
    buttons = page.locator("a.wallet-button")
    assert [buttons.nth(i).get_attribute("data-wallet") for i in range(buttons.count())] \
        == ORDER[device]
    assert [buttons.nth(i).inner_text().strip() for i in range(buttons.count())] \
        == [LABELS[lang][w] for w in ORDER[device]]
    for i in range(buttons.count()):
        assert buttons.nth(i).is_visible()
    assert page.locator(".scan").count() == (1 if device == "desktop" else 0)
    if device == "desktop":
        assert LABELS[lang]["scan"] in page.locator(".scan h2").inner_text()
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator(".pp-card img.logo").evaluate("img => img.naturalWidth") == 160
    if device == "android":  # Google shows the hero image, at the bottom
        assert page.locator(".pp-card img.pp-hero").evaluate("img => img.naturalWidth") == 750
    else:  # a generic pass's Apple card has no strip: the iPhone would not show it
        assert page.locator(".pp-card img.strip").count() == 0
    screenshot(page, f"holder-{device}-{lang}")
    _same_origin(requests, live_server.url)


def _button_hrefs(live_server, page_for, issuer, device: str) -> list[tuple[str, Any]]:
    """For the permanent page and a download link: (page path, the page's buttons)."""
    item = _issue_rich(issuer)
    found = []
    for path in (f"/p/{item['shortId']}", issuer.link(item)):
        page = page_for(device)
        page.goto(f"{live_server.url}{path}")
        hrefs = {w: page.locator(f"a.wallet-button.{w}").get_attribute("href")
                 for w in ("apple", "google")}
        assert hrefs == {"apple": f"{path}/apple.pkpass", "google": f"{path}/google"}
        found.append((path, page))
    return found


@pytest.mark.parametrize("device", ["iphone", "desktop"])
def test_apple_button_answers_with_a_pass_file(live_server, page_for, issuer,
                                               device: str) -> None:
    for path, page in _button_hrefs(live_server, page_for, issuer, device):
        pkpass = page.request.get(f"{live_server.url}{path}/apple.pkpass", max_redirects=0)
        assert pkpass.status == 200, pkpass.text()[:300]
        assert pkpass.headers["content-type"].startswith("application/vnd.apple.pkpass")
        assert pkpass.body()[:2] == b"PK"  # a zip archive


@pytest.mark.parametrize("device", ["android", "desktop"])
def test_google_button_answers_with_a_save_redirect(live_server, page_for, issuer,
                                                    device: str) -> None:
    for path, page in _button_hrefs(live_server, page_for, issuer, device):
        save = page.request.get(f"{live_server.url}{path}/google", max_redirects=0)
        assert save.status == 302, save.text()[:300]
        assert save.headers["location"].startswith(
            live_server.app.config["GOOGLE_WALLET_SAVE_URL"])


@pytest.mark.parametrize("kind", ["permanent", "download"])
def test_desktop_qr_code_opens_this_page(live_server, page_for, issuer, kind: str) -> None:
    item = _issue_rich(issuer)
    path = f"/p/{item['shortId']}" if kind == "permanent" else issuer.link(item)
    page = page_for("desktop")
    page.goto(f"{live_server.url}{path}")
    found = _decode(page.locator(".scan-code").screenshot())
    assert [(r.format.name, r.text) for r in found] == [("QRCode", f"{BASE_URL}{path}")]


@pytest.mark.parametrize(("format_", "zxing_name"), [
    ("qr", "QRCode"), ("pdf417", "PDF417"), ("aztec", "Aztec"), ("code128", "Code128")])
def test_card_barcode_scans(live_server, page_for, issuer, format_: str,
                            zxing_name: str) -> None:
    item = issuer.issue(template_body(barcode={"format": format_}))
    page = page_for("iphone")
    page.goto(f"{live_server.url}/p/{item['shortId']}")
    found = _decode(page.locator(".barcode .symbol").screenshot())
    assert [(r.format.name, r.text) for r in found] == [(zxing_name, item["shortId"])]
    screenshot(page, f"holder-barcode-{format_}")


def test_event_ticket(live_server, page_for, issuer) -> None:
    body = template_body("event", description="Concert ticket", organizationName="Acme Live",
                         images={"strip": issuer.asset("strip", 750, 246, "#6a040f")},
                         barcode={"format": "pdf417", "perPass": True})
    body["definition"]["event"]["doorsOpenAt"] = "2027-01-01T19:00:00Z"
    item = issuer.issue(body, holderName="Grace Hopper", fieldValues={"seat": "Row 4, Seat 12"},
                        barcodeValue="TICKET-000123")
    for device, lang in (("iphone", "en-US"), ("android", "de-DE")):
        page = page_for(device, locale=lang)
        assert page.goto(f"{live_server.url}/p/{item['shortId']}").status == 200
        assert page.locator(".event-name").inner_text() == "The Show"
        screenshot(page, f"holder-event-{device}-{lang[:2]}")
    # the Google-less template offers Apple only
    assert page.locator("a.wallet-button").count() == 1


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("device", ["iphone", "desktop"])
def test_voided_pass(live_server, page_for, issuer, device: str, lang: str) -> None:
    item = _issue_rich(issuer)
    path = issuer.link(item)
    assert issuer.delete(f"/v1/passes/{item['id']}") == 200
    page = page_for(device, locale={"en": "en-US", "de": "de-DE"}[lang])
    for url in (f"/p/{item['shortId']}", path):
        response = page.goto(f"{live_server.url}{url}")
        assert response.status == 410
        assert page.locator("h1").inner_text() == LABELS[lang]["voided"]
        content = page.content()
        # It names whom to ask (the issuer, as the pass did) and nothing else of the pass.
        assert page.locator("main p").inner_text().startswith("Acme Gym ")
        assert "Ada" not in content and "Gold membership" not in content
        assert page.locator("a").count() == 0 and page.locator("img").count() == 0
    screenshot(page, f"holder-voided-{device}-{lang}")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_expired_link(live_server, page_for, issuer, lang: str) -> None:
    item = _issue_rich(issuer)
    start = clock.now()
    clock.set_now(lambda: start)
    try:
        path = issuer.link(item, 60)
        clock.set_now(lambda: start + timedelta(seconds=61))
        page = page_for("android", locale={"en": "en-US", "de": "de-DE"}[lang])
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 410
        assert response.headers["cache-control"] == "no-store"
        assert page.locator("h1").inner_text() == LABELS[lang]["expired"]
        assert "Ada" not in page.content()
        screenshot(page, f"holder-expired-android-{lang}")
    finally:
        clock.set_now(None)


@pytest.mark.parametrize("device", ["iphone", "android", "desktop"])
def test_budget_small_and_same_origin(live_server, page_for, issuer, recorded,
                                      device: str) -> None:
    """Lighthouse-style budget: HTML + CSS under 50 KB; no third-party request."""
    item = _issue_rich(issuer)
    page = page_for(device)
    requests = recorded(page)
    page.goto(f"{live_server.url}{issuer.link(item)}", wait_until="networkidle")
    sizes = {r.resource_type: 0 for r in requests}
    for r in requests:
        response = r.response()
        assert response is not None and response.status == 200, r.url
        sizes[r.resource_type] += len(response.body())
    assert set(sizes) <= {"document", "stylesheet", "image"}, sizes
    assert sizes["document"] + sizes["stylesheet"] < 50 * 1024, sizes
    assert not [r for r in requests if r.resource_type == "script"]
    _same_origin(requests, live_server.url)
    print(f"\n{device}: document {sizes['document']} B, stylesheet {sizes['stylesheet']} B, "
          f"images {sizes.get('image', 0)} B, {len(requests)} requests")


def test_works_without_javascript_and_in_dark_mode(live_server, page_for, issuer) -> None:
    item = _issue_rich(issuer)
    page = page_for("iphone", java_script_enabled=False, color_scheme="dark")
    page.goto(f"{live_server.url}/p/{item['shortId']}")
    buttons = page.locator("a.wallet-button")
    assert buttons.count() == 2 and buttons.first.is_visible()
    page.locator(".pp-back summary").click()  # <details> opens without script
    assert page.locator(".pp-back dd").is_visible()
    screenshot(page, "holder-iphone-dark")


def test_csp_is_not_violated(live_server, page_for, issuer) -> None:
    """Chromium reports no CSP violation: the theme block's hash and the stylesheet hold."""
    item = _issue_rich(issuer)
    page = page_for("desktop")
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text))
    page.goto(f"{live_server.url}/p/{item['shortId']}", wait_until="networkidle")
    assert not [m for m in messages if "Content Security Policy" in m], messages
    background = page.locator(".pp-card").evaluate("el => getComputedStyle(el).backgroundColor")
    assert background == "rgb(29, 53, 87)"  # #1d3557 from the hashed theme block
    assert page.locator(".wallet-button").first.evaluate(
        "el => getComputedStyle(el).borderRadius") == "12px"  # holder.css applied


def test_long_values_do_not_break_the_layout(live_server, page_for, issuer) -> None:
    body = copy.deepcopy(membership(issuer))
    body["definition"]["description"] = "A" * 60 + " membership with a very long name"
    item = issuer.issue(body, holderName="Maximiliane Wilhelmina von Hohenzollern-Sigmaringen",
                        fieldValues={"member": "Maximiliane-Wilhelmina Alexandrovna " * 3,
                                     "since": "2024-03-14", "points": 99999999})
    page = page_for("iphone")
    page.goto(f"{live_server.url}/p/{item['shortId']}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # nothing overflows the phone's width
    screenshot(page, "holder-iphone-long-values")
