"""Status that tells the truth and messages that promise only what happens (issue 23, items 3
and 9), in Chromium: what each wallet will do said before a save and again after it, the
designer's default change message, the passes list's wallet column after a device registers,
a delivery badge that moves without a reload, and the Templates and Webhooks pages on a
390 px phone. Screenshots in tests/browser/screenshots/."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.factories import definition
from tests.apple.conftest import apns_overrides, apple_overrides
from tests.browser.dashboard.conftest import organization_key, sign_in
from tests.support.browser import LiveServer, api, call, screenshot, serving
from tests.support.fake_apns import FakeApns

EMAIL = "staff@status.test"
PHONE_TOKEN = "cd" * 32
PHONE_WIDTH = 390


@pytest.fixture
def server(database: dict[str, Any], database_url: str, tmp_path: Path, fake_apns: FakeApns
           ) -> Iterator[LiveServer]:
    """The app with the demo Apple identity, pushing to the fake APNs."""
    extra = {**apple_overrides(), **apns_overrides(fake_apns), "JOBS_SYNCHRONOUS": False,
             "WEBHOOKS_ALLOW_PRIVATE_NETWORKS": True}
    with serving(database_url, tmp_path, extra) as live:
        yield live


@pytest.fixture
def key(server: LiveServer) -> str:
    """An organization whose owner signs in as EMAIL; its test API key."""
    return organization_key(server, "Status Co", EMAIL)


def _pass(server: LiveServer, key: str, **level: Any) -> dict[str, Any]:
    body = definition()
    body["config"]["fields"]["secondary"][0].update(level)
    template = api(server, key, "POST", "templates",
                   {"name": "Gym", "type": "generic", "definition": body})
    return api(server, key, "POST", "passes", {
        "templateId": template["id"], "holderName": "Ada Lovelace",
        "fieldValues": {"member": "Ada", "level": "Gold"}})


class Phone:
    """An iPhone's Wallet speaking the web service over HTTP: registers, fetches the pass."""

    def __init__(self, server: LiveServer, pass_id: str):
        from webapp.extensions import db
        from webapp.models import Pass
        from webapp.services.apple import passes

        with server.app.app_context():
            item = db.session.get(Pass, pass_id)
            self.pass_type = passes.pass_type_identifier(item)
            self.token = passes.authentication_token(item)
        self.server, self.pass_id = server, pass_id

    def register(self) -> None:
        status, _ = call(self.server, "POST", f"/wallet/apple/v1/devices/phone1/registrations/"
                         f"{self.pass_type}/{self.pass_id}", {"pushToken": PHONE_TOKEN},
                         {"Authorization": f"ApplePass {self.token}"})
        assert status == 201

    def fetch(self) -> None:
        status, _ = call(self.server, "GET", f"/wallet/apple/v1/passes/{self.pass_type}/"
                         f"{self.pass_id}", headers={"Authorization": f"ApplePass {self.token}"})
        assert status == 200


def _signed_in(page_for: Any, server: LiveServer, device: str = "desktop") -> Any:
    page = page_for(device)
    sign_in(page, server.url, EMAIL)
    page.goto(f"{server.url}/dashboard/test/passes")
    return page


def test_the_wallet_column_shows_where_the_pass_is(page_for: Any, server: LiveServer,
                                                   key: str) -> None:
    installed, other = _pass(server, key), _pass(server, key)
    Phone(server, installed["id"]).register()
    page = _signed_in(page_for, server)
    row = page.locator("tr", has_text=installed["shortId"])
    assert row.locator("td[data-label=Wallets]").inner_text().split() == \
        ["Apple:", "on", "1", "device", "Google:", "not", "saved"]
    assert page.locator("tr", has_text=other["shortId"]).locator(
        "td[data-label=Wallets]").inner_text().split() == \
        ["Apple:", "not", "added", "Google:", "not", "saved"]
    screenshot(page, "dashboard-passes-wallet-column")


def test_what_each_wallet_does_is_said_before_and_after_the_save(page_for: Any,
                                                                  server: LiveServer,
                                                                  key: str) -> None:
    item = _pass(server, key)
    Phone(server, item["id"]).register()
    page = _signed_in(page_for, server)
    page.goto(f"{server.url}/dashboard/test/passes/{item['id']}")
    notice = page.locator("#update-notice")
    assert notice.inner_text() == "Change a value to see what each wallet will show."
    page.fill("#e-fv-level", "Platinum")
    silent = "Apple Wallet: the iPhone with the pass gets the update silently (no message)."
    notice.locator("li", has_text=silent).wait_for()
    page.check("input[name=notification_mode][value=notify]")
    apple = ("Apple Wallet: the iPhone with the pass shows “Level: Platinum”. (No change "
             "message on Level: the label and new value are shown.)")
    notice.locator("li", has_text="shows “Level: Platinum”").wait_for()
    before = notice.locator("li").all_inner_texts()
    assert before[0] == apple
    assert before[1].startswith("Google Wallet: not updated: Test passes need the operator's "
                                "Google demo issuer")
    notice.scroll_into_view_if_needed()
    screenshot(page, "dashboard-pass-edit-before-save")
    page.click("text=Save values")
    page.wait_for_selector(".flash.ok >> text=Saved 1 change.")
    assert page.locator(".flash.ok").all_inner_texts() == ["Saved 1 change.", *before]
    screenshot(page, "dashboard-pass-edit-after-save")


def test_a_delivery_badge_moves_without_a_reload(page_for: Any, server: LiveServer, key: str,
                                                 fake_apns: FakeApns) -> None:
    from webapp.services.outbox import sweep

    item = _pass(server, key)
    phone = Phone(server, item["id"])
    phone.register()
    fake_apns.answer(PHONE_TOKEN, (503, "ServiceUnavailable"))  # Apple's step stays pending
    page = _signed_in(page_for, server)
    page.goto(f"{server.url}/dashboard/test/passes/{item['id']}")
    page.fill("#e-fv-level", "Platinum")
    # The notice above the button is redrawn after typing: click once it has settled, so
    # the button is not moved away under the click.
    page.locator("#update-notice li", has_text="Apple Wallet").first.wait_for()
    page.wait_for_load_state("networkidle")
    page.click("text=Save values")
    page.wait_for_selector(".flash.ok >> text=Saved 1 change.")
    badge = page.locator(".deliveries .badge", has_text="Apple:").first
    assert badge.inner_text() == "Apple: pending"
    page.evaluate("window.__notReloaded = true")
    screenshot(page, "dashboard-pass-delivery-pending")
    fake_apns.answer(PHONE_TOKEN, (200, None))
    time.sleep(5.5)  # the first retry is due 5 s after the failed push
    with server.app.app_context():
        sweep.run()
    page.locator(".deliveries .badge", has_text="Apple: sent (1 device)").wait_for(timeout=10000)
    phone.fetch()  # the iPhone fetches the new version: delivered
    page.locator(".deliveries .badge", has_text="Apple: delivered").wait_for(timeout=10000)
    assert page.evaluate("window.__notReloaded") is True
    screenshot(page, "dashboard-pass-delivery-delivered")
    # settled: the badges stop asking
    assert page.locator(".deliveries[hx-get]").count() == 0


def test_the_designer_offers_a_default_change_message(page_for: Any, server: LiveServer,
                                                       key: str) -> None:
    item = _pass(server, key)
    page = _signed_in(page_for, server)
    page.goto(f"{server.url}/dashboard/test/templates/{item['templateId']}")
    message = page.locator("#f-secondary-0-changeMessage")
    assert message.get_attribute("placeholder") == "Level: %@"
    page.fill("#f-secondary-0-label", "Tier")
    assert message.get_attribute("placeholder") == "Tier: %@"
    assert page.locator(".save-notice").inner_text() == (
        "Saving makes revision 2 for passes issued from now on; passes already issued keep "
        "their design and no wallet is updated.")
    message.fill("You are now a %@ member")
    page.click("#save-design")
    page.locator(".saved-note", has_text="Saved as revision 2.").wait_for()
    assert page.locator(".saved-note").inner_text() == (
        "Saved as revision 2. Passes issued from now on use it; passes already issued keep "
        "revision 1, so no wallet is updated.")
    screenshot(page, "dashboard-designer-change-message-saved")
    level = api(server, key, "GET", f"templates/{item['templateId']}")[
        "definition"]["config"]["fields"]["secondary"][0]
    assert level["changeMessage"] == "You are now a %@ member"
    message = page.locator("#f-secondary-0-changeMessage")
    message.fill("")  # removed: the default applies again
    page.click("#save-design")
    page.locator(".saved-note", has_text="Saved as revision 3.").wait_for()
    level = api(server, key, "GET", f"templates/{item['templateId']}")[
        "definition"]["config"]["fields"]["secondary"][0]
    assert "changeMessage" not in level and level["label"] == "Tier"
    assert page.locator("#f-secondary-0-changeMessage").get_attribute("placeholder") == \
        "Tier: %@"


def _fits_the_phone(page: Any) -> None:
    page.wait_for_load_state("networkidle")
    assert page.evaluate("innerWidth") == PHONE_WIDTH
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH


def test_templates_webhooks_and_passes_fit_a_phone(page_for: Any, server: LiveServer,
                                            key: str) -> None:
    api(server, key, "POST", "templates", {
        "name": "Annual membership for the downtown climbing gym and sauna",
        "type": "generic", "definition": definition()})
    api(server, key, "POST", "webhook-endpoints", {
        "url": "https://hooks.example.com/a/very/long/path/that/goes/on/and/on/passes-events",
        "description": "CRM synchronisation of every pass event", "enabledEvents": [
            "pass.created", "pass.updated", "pass.voided", "pass_update.delivered"]})
    Phone(server, _pass(server, key)["id"]).register()
    page = _signed_in(page_for, server, "iphone")
    _fits_the_phone(page)  # the passes list, with its wallet column
    screenshot(page, "dashboard-phone-passes-wallets")
    page.goto(f"{server.url}/dashboard/test/templates")
    _fits_the_phone(page)
    screenshot(page, "dashboard-phone-templates-list")
    page.goto(f"{server.url}/dashboard/test/webhooks")
    _fits_the_phone(page)
    screenshot(page, "dashboard-phone-webhooks-list")
