"""A pass's own expiry and member photo, in Chromium: the holder page draws the photo and,
once the pass's own date has passed, says the pass is expired; the dashboard's pass list
and pass page say it too. Screenshots land in tests/browser/screenshots/."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.api.factories import template_body
from tests.browser.dashboard.conftest import sign_in
from tests.browser.holder.conftest import Issuer
from tests.support.browser import screenshot

EMAIL, PASSWORD = "owner@own-dates.test", "own dates password 1"
PAST = "2026-01-01T00:00:00Z"


@pytest.fixture
def owner(live_server: Any) -> Issuer:
    """An organization whose owner signs in to the dashboard, issuing through /v1."""
    from webapp.services.accounts import organizations

    with live_server.app.app_context():
        created = organizations.create("Acme Gym", EMAIL, PASSWORD)
    return Issuer(live_server, created.keys["test"])


def put_image(issuer: Issuer, pass_id: str, slot: str, asset_id: str) -> None:
    response = issuer.client.put(
        f"/v1/passes/{pass_id}/images/{slot}", json={"assetId": asset_id},
        headers={"Authorization": f"Bearer {issuer.key}", "Idempotency-Key": str(uuid.uuid4())})
    assert response.status_code == 200, response.get_json()


def test_own_photo_and_own_expiry_on_holder_and_dashboard_pages(live_server, page_for,
                                                                 owner) -> None:
    base = live_server.url
    design = template_body(description="Gold membership", organizationName="Acme Gym",
                           colors={"background": "#1d2b53", "foreground": "#ffffff"},
                           images={"logo": owner.asset("logo", 160, 50, "#e63946")})
    expired = owner.issue(design, holderName="Ada Lovelace", expiresAt=PAST,
                          fieldValues={"member": "Ada Lovelace", "level": "Gold"})
    put_image(owner, expired["id"], "thumbnail", owner.asset("thumbnail", 180, 180, "#2a9d8f"))
    valid = owner.issue(design, holderName="Alan Turing", expiresAt="2030-01-01T00:00:00Z",
                        fieldValues={"member": "Alan Turing"})

    phone = page_for("iphone")
    assert phone.goto(f"{base}/p/{expired['shortId']}").status == 200
    card = phone.locator(".pp-apple")
    assert "pp-expired" in (card.get_attribute("class") or "")
    assert card.locator(".pp-state").inner_text() == "EXPIRED"
    photo = card.locator("img.thumbnail")
    assert photo.evaluate("img => img.complete && img.naturalWidth") == 180
    assert phone.locator("a[data-wallet=apple]").count() == 1  # still addable
    screenshot(phone, "own-dates-holder-expired-iphone")
    android = page_for("android")
    assert android.goto(f"{base}/p/{valid['shortId']}").status == 200
    assert android.locator(".pp-google .pp-state").count() == 0
    screenshot(android, "own-dates-holder-valid-android")

    desk = page_for("desktop")
    sign_in(desk, base, EMAIL, PASSWORD)
    desk.goto(f"{base}/dashboard/test/passes")
    row = desk.locator("tr", has_text="Ada Lovelace")
    assert row.locator("td[data-label=Status]").inner_text().strip() == "Expired"
    other = desk.locator("tr", has_text="Alan Turing")
    assert other.locator("td[data-label=Status]").inner_text().strip() == "Active"
    screenshot(desk, "own-dates-pass-list")
    desk.goto(f"{base}/dashboard/test/passes/{expired['id']}")
    assert desk.locator(".status-line .badge").first.inner_text() == "Expired"
    assert "this pass's own date" in desk.locator("dl.props").inner_text()
    assert desk.locator(".pp-apple img.thumbnail").evaluate("img => img.naturalWidth") == 180
    screenshot(desk, "own-dates-pass-page")
