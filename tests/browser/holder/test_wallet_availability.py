"""No wallet button leads to an error: the holder page of a fresh `make run` (no Google
credentials, a template with images) on a Pixel 7, and a tap while Google is down, in
Debian's Chromium. Screenshots land in tests/browser/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.factories import template_body
from tests.browser.holder.conftest import Issuer
from tests.holder.conftest import GOOGLE_NOTE
from tests.support.browser import LiveServer, screenshot, serving
from webapp.db.transaction import DISPATCHER

# Playwright's "Pixel 7" descriptor.
PIXEL_7: dict[str, Any] = {
    "user_agent": ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like "
                   "Gecko) Chrome/159.0.8154.6 Mobile Safari/537.36"),
    "screen": {"width": 412, "height": 915}, "viewport": {"width": 412, "height": 839},
    "device_scale_factor": 2.625, "is_mobile": True, "has_touch": True,
}
LOCALES = {"en": "en-US", "de": "de-DE", "fr": "fr-FR", "es": "es-ES"}
GOOGLE_BUTTON = {"en": "Add to Google Wallet", "de": "Zu Google Wallet hinzufügen",
                 "fr": "Ajouter à Google Wallet", "es": "Añadir a Google Wallet"}


@pytest.fixture
def fresh_server(database: dict[str, Any], database_url: str, tmp_path: Path
                 ) -> Iterator[LiveServer]:
    """A fresh `make run`: no Google credentials, served on its loopback address."""
    with serving(database_url, tmp_path) as server:
        yield server


@pytest.fixture
def demo(fresh_server: LiveServer) -> Issuer:
    """The demo organization `flask demo init` creates, with the test key it prints."""
    result = fresh_server.app.test_cli_runner().invoke(args=["demo", "init"])
    assert result.exit_code == 0, result.output
    found = re.search(r"test key: (\S+)", result.output)
    assert found is not None, result.output
    return Issuer(fresh_server, key=found.group(1))


@pytest.fixture
def pixel_7(browser: Any) -> Iterator[Callable[..., Any]]:
    """`pixel_7("de")`: a page on a Pixel 7 in a language (a new context each)."""
    contexts: list[Any] = []

    def make(lang: str = "en", **extra: Any) -> Any:
        locale = LOCALES[lang]
        context = browser.new_context(**PIXEL_7, locale=locale,
                                      extra_http_headers={"Accept-Language": locale}, **extra)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def _pictured(issuer: Issuer) -> dict[str, Any]:
    """A membership template with a logo and a strip."""
    return template_body(
        description="Gold membership", organizationName="Demo Gym",
        colors={"background": "#1d3557", "foreground": "#f1faee", "label": "#a8dadc"},
        images={"logo": issuer.asset("logo", 160, 50, "#e63946"),
                "strip": issuer.asset("strip", 750, 246, "#457b9d")},
        barcode={"format": "qr"})


def _links_answer_without_error(page: Any, base: str) -> list[str]:
    """Every link of the page, fetched as a tap would: none answers 4xx/5xx; their paths."""
    hrefs = [a.get_attribute("href") for a in page.locator("a[href]").all()]
    for href in hrefs:
        answer = page.request.get(f"{base}{href}", max_redirects=0)
        assert answer.status < 400, (href, answer.status, answer.text()[:200])
    return hrefs


def _csp_violations(page: Any) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text))
    return messages


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es"])
def test_fresh_install_on_a_pixel_7_offers_no_google_button_and_says_why(
        fresh_server: LiveServer, demo: Issuer, pixel_7: Callable[..., Any], lang: str) -> None:
    item = demo.issue(_pictured(demo), holderName="Ada Lovelace")
    page = pixel_7(lang)
    console = _csp_violations(page)
    for kind, path in (("page", f"/p/{item['shortId']}"), ("link", demo.link(item))):
        response = page.goto(f"{fresh_server.url}{path}")
        assert response.status == 200
        buttons = page.locator("a.wallet-button")
        assert [b.get_attribute("data-wallet") for b in buttons.all()] == ["apple"]
        assert page.get_by_text(GOOGLE_BUTTON[lang]).count() == 0
        note = page.locator(".wallet-note")
        assert note.count() == 1 and note.is_visible()
        assert note.inner_text().strip() == GOOGLE_NOTE[lang]
        # The note sits with the button, above the card: seen without scrolling.
        assert note.bounding_box()["y"] + note.bounding_box()["height"] <= PIXEL_7[
            "viewport"]["height"]
        assert _links_answer_without_error(page, fresh_server.url) == [f"{path}/apple.pkpass"]
        if kind == "page":
            screenshot(page, f"holder-fresh-pixel7-{lang}")
    # A Google link from before (or typed) answers the page saying why, not an error.
    response = page.goto(f"{fresh_server.url}/p/{item['shortId']}/google")
    assert response.status == 200
    assert response.headers["content-type"].startswith("text/html")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator(".wallet-note").inner_text().strip() == GOOGLE_NOTE[lang]
    # the card of the wallet offered (Apple), not Google's
    assert page.locator(".pp-apple").count() == 1
    assert page.locator(".pp-apple img.strip").count() == 0  # a generic pass shows no strip
    assert page.locator(".pp-google").count() == 0
    assert page.locator(".wallet-button").evaluate(
        "el => getComputedStyle(el).borderRadius") == "12px"  # holder.css applied
    screenshot(page, f"holder-fresh-pixel7-google-link-{lang}")
    assert not [m for m in console if "Content Security Policy" in m], console


def test_fresh_install_on_a_desktop_and_in_dark_mode_says_why(
        fresh_server: LiveServer, demo: Issuer, page_for: Callable[..., Any]) -> None:
    item = demo.issue(_pictured(demo), holderName="Ada Lovelace")
    for device, extra in (("desktop", {}), ("iphone", {"color_scheme": "dark"})):
        page = page_for(device, **extra)
        assert page.goto(f"{fresh_server.url}/p/{item['shortId']}").status == 200
        assert [b.get_attribute("data-wallet") for b in page.locator("a.wallet-button").all()] \
            == ["apple"]
        assert page.locator(".actions .wallet-note").inner_text().strip() == GOOGLE_NOTE["en"]
        _links_answer_without_error(page, fresh_server.url)
        screenshot(page, f"holder-fresh-{device}-{'dark' if extra else 'en'}")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_google_down_on_tap_asks_to_try_again_on_the_styled_page(
        live_server: LiveServer, issuer: Issuer, fake_google: Any,
        pixel_7: Callable[..., Any], lang: str, patient_tap: None) -> None:
    live_server.app.extensions[DISPATCHER] = None  # the job never ran: the tap writes
    item = issuer.issue(_pictured(issuer), holderName="Ada Lovelace")
    page = pixel_7(lang)
    page.goto(f"{live_server.url}/p/{item['shortId']}")
    fake_google.fail("POST", "/walletobjects/v1/genericClass", 503)
    with page.expect_navigation() as navigation:
        page.locator("a.wallet-button.google").click()
    answer = navigation.value
    assert answer.status == 503 and answer.headers["retry-after"] == "30"
    assert answer.headers["content-type"].startswith("text/html")
    notice = page.locator(".wallet-note.retry")
    assert notice.is_visible() and page.locator("html").get_attribute("lang") == lang
    assert {"en": "try again in a minute", "de": "in einer Minute"}[lang] in notice.inner_text()
    # The button is still there; Google is back, and the next tap goes to its save page.
    google = page.locator("a.wallet-button.google")
    assert google.is_visible()
    screenshot(page, f"holder-google-down-pixel7-{lang}")
    again = page.request.get(f"{live_server.url}{google.get_attribute('href')}",
                             max_redirects=0)
    assert again.status == 302
    assert again.headers["location"].startswith(live_server.app.config["GOOGLE_WALLET_SAVE_URL"])
