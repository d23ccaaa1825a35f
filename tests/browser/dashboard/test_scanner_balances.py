"""The scanner with loyalty and gift cards in Chromium (issue 32): the fake rear camera films
a loyalty card's barcode, the card's screen shows its points and tier, "Add points" and
"Spend" move them; a gift card typed in by its short ID is charged. Screenshots at 390x844."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

from PIL import Image

from tests.api.factories import gift_card_definition, loyalty_definition, store_body
from tests.browser.dashboard.conftest import sign_in
from tests.browser.dashboard.test_scanner_camera import (  # noqa: F401  (fixtures)
    SCANNER,
    SCANNER_PASSWORD,
    _camera_file,
    _symbol,
    _wait_for_verdict,
    org,
    phone_with_camera,
)
from tests.support.browser import LiveServer, api, screenshot


def _logo(server: LiveServer, key: str) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (160, 50), "#6b3e26").save(buffer, "PNG")
    data = base64.b64encode(buffer.getvalue()).decode()
    return str(api(server, key, "POST", "assets", {"slot": "logo", "data": data})["id"])


def _card(server: LiveServer, key: str, definition: dict[str, Any], balance: int
          ) -> dict[str, Any]:
    template = api(server, key, "POST", "templates", store_body(definition))
    return api(server, key, "POST", "passes", {"templateId": template["id"],
                                               "holderName": "Ada Lovelace",
                                               "balance": balance})


def test_a_filmed_loyalty_card_takes_points_and_spends_them(
        phone_with_camera: Any, live_server: LiveServer, org: dict[str, Any],  # noqa: F811
        tmp_path: Path) -> None:
    item = _card(live_server, org["key"], loyalty_definition(_logo(live_server, org["key"])),
                 990)
    page = phone_with_camera(_camera_file(_symbol("qr", item["shortId"]), tmp_path / "c.y4m"))
    sign_in(page, live_server.url, SCANNER, SCANNER_PASSWORD, "/dashboard/test/scan")
    card = _wait_for_verdict(page, "balance")
    assert page.locator("[data-testid=scan-balance]").inner_text() == "990"
    assert page.locator("[data-testid=scan-tier]").inner_text() == "Silver"
    page.wait_for_timeout(3500)  # longer than a green verdict stays: the card's stays
    assert card.is_visible()
    page.fill("#scan-amount", "20")
    page.click("button[value=earn]")
    page.wait_for_selector("text=Added 20")
    assert page.locator("[data-testid=scan-balance]").inner_text() == "1,010"
    assert page.locator("[data-testid=scan-tier]").inner_text() == "Gold"
    screenshot(page, "scanner-loyalty")
    page.fill("#scan-amount", "10")
    page.click("button[value=spend]")
    page.wait_for_selector("text=Spent 10")
    assert page.locator("[data-testid=scan-balance]").inner_text() == "1,000"
    moved = api(live_server, org["key"], "GET",
                f"passes/{item['id']}/balance-transactions")["data"]
    assert [(m["amount"], m["source"]) for m in moved] == [(-10, "scanner"), (20, "scanner"),
                                                          (990, "api")]
    assert page.evaluate("window.__refused") == []


def test_a_typed_gift_card_is_charged(
        phone_with_camera: Any, live_server: LiveServer,  # noqa: F811
        org: dict[str, Any], tmp_path: Path) -> None:  # noqa: F811
    item = _card(live_server, org["key"], gift_card_definition(), 2500)
    blank = Image.new("L", (64, 64), 255)
    page = phone_with_camera(_camera_file(blank, tmp_path / "blank.y4m"))
    sign_in(page, live_server.url, SCANNER, SCANNER_PASSWORD, "/dashboard/test/scan")
    page.fill("#scan-code", item["shortId"])
    page.click(".scan-go")
    _wait_for_verdict(page, "balance")
    assert page.locator("[data-testid=scan-balance]").inner_text() == "25.00 EUR"
    page.fill("#scan-amount", "4.50")
    page.click("button[value=spend]")
    page.wait_for_selector("text=Charged.")
    assert page.locator("[data-testid=scan-balance]").inner_text() == "20.50 EUR"
    page.fill("#scan-amount", "100")
    page.click("button[value=spend]")
    page.wait_for_selector("text=it cannot spend")
    screenshot(page, "scanner-gift-card")
    page.click("[data-done]")
    page.wait_for_selector("#verdict", state="detached")
    assert api(live_server, org["key"], "GET", f"passes/{item['id']}")["balance"] == 2050
