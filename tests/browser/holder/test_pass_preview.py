"""One drawing of the pass, in Chromium: the holder page, the dashboard's pass page and the
designer show the same rows (labels and values, in order), in the same colours; voided and
expired passes say so; the labels pass WCAG AA contrast. Screenshots at phone (390x844) and
desktop width land in tests/browser/screenshots/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.api.factories import template_body
from tests.browser.dashboard.conftest import sign_in
from tests.browser.holder.conftest import Issuer
from tests.support.browser import screenshot
from webapp import clock

EMAIL, PASSWORD = "owner@preview.test", "preview password 1"
# (label, value) of each field of a card, top to bottom; textContent, not innerText, which
# would give the labels' CSS upper case.
ROWS = """card => [...card.querySelectorAll('dt')].map(
    dt => [dt.textContent.trim(), dt.nextElementSibling.textContent.trim()])"""
# The WCAG contrast of each label against the card's background, as Chromium paints them.
CONTRASTS = """card => {
  const rgb = c => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bg = lum(getComputedStyle(card).backgroundColor);
  return [...card.querySelectorAll('dt')].map(dt => {
    const fg = lum(getComputedStyle(dt).color);
    return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05); });
}"""


@pytest.fixture
def owner(live_server: Any) -> Issuer:
    """An organization whose owner signs in to the dashboard, issuing through /v1."""
    from webapp.services.accounts import organizations

    with live_server.app.app_context():
        created = organizations.create("Acme Gym", EMAIL, PASSWORD)
    return Issuer(live_server, created.keys["test"])


def design(issuer: Issuer, **changes: Any) -> dict[str, Any]:
    """Every front group, a back field, a logo and a strip, a QR code; the label colour the
    designer's starter uses."""
    body = template_body(
        description="Gold membership", organizationName="Acme Gym",
        colors={"background": "#1d2b53", "foreground": "#ffffff", "label": "#b8c4ff"},
        images={"logo": issuer.asset("logo", 160, 50, "#e63946"),
                "strip": issuer.asset("strip", 750, 246, "#457b9d")},
        barcode={"format": "qr", "altText": "Member {{shortId}}"}, **changes)
    fields = body["definition"]["config"]["fields"]
    fields["header"] = [{"key": "tier", "label": "Tier", "binding": "shared", "value": "Gold"}]
    fields["auxiliary"] = [{"key": "since", "label": "Member since", "binding": "shared",
                            "value": "2024-03-14", "format": "date"}]
    fields["back"] = [{"key": "terms", "label": "Terms", "binding": "shared",
                       "value": "Show this pass at the front desk."}]
    return body


def cards(page: Any) -> dict[str, Any]:
    """Each drawn card's rows and state (`active`, `voided`, `expired`) and its stamp."""
    out = {}
    for wallet in ("apple", "google"):
        card = page.locator(f".pp-{wallet}")
        if card.count():
            stamp = card.locator(".pp-state")
            out[wallet] = {"rows": card.evaluate(ROWS),
                           "state": card.get_attribute("class").split()[-1].removeprefix("pp-"),
                           "stamp": stamp.inner_text() if stamp.count() else None,
                           "background": card.evaluate("c => getComputedStyle(c).background"
                                                       "Color")}
    return out


def test_holder_page_pass_page_and_designer_draw_the_same_card(live_server, page_for,
                                                              owner) -> None:
    base = live_server.url
    item = owner.issue(design(owner), holderName="Ada Lovelace",
                       fieldValues={"member": "Ada Lovelace", "level": "Platinum"})
    expected = [("Tier", "Gold"), ("Member", "Ada Lovelace"), ("Level", "Platinum"),
                ("Club", "Downtown"), ("Member since", "March 14, 2024")]

    phone = page_for("iphone")
    phone.goto(f"{base}/p/{item['shortId']}")
    holder = cards(phone)
    assert list(holder) == ["apple"]  # the device's own wallet's card
    assert [tuple(r) for r in holder["apple"]["rows"]] == expected
    assert phone.locator("body").inner_text().count("Ada Lovelace") == 1  # no extra Name row
    assert min(phone.locator(".pp-apple").evaluate(CONTRASTS)) >= 4.5
    screenshot(phone, "preview-holder-iphone")
    android = page_for("android")
    android.goto(f"{base}/p/{item['shortId']}")
    holder_google = cards(android)
    assert list(holder_google) == ["google"]
    screenshot(android, "preview-holder-android")

    desk = page_for("desktop")
    sign_in(desk, base, EMAIL, PASSWORD)
    desk.goto(f"{base}/dashboard/test/passes/{item['id']}")
    desk.wait_for_function("() => document.querySelector('.pp-apple').style.background")
    staff = cards(desk)
    assert staff["apple"] == holder["apple"]  # rows, state and colours
    assert staff["google"] == holder_google["google"]
    assert min(desk.locator(".pp-apple").evaluate(CONTRASTS)) >= 4.5
    screenshot(desk, "preview-pass-page-desktop")

    desk.goto(f"{base}/dashboard/test/templates/{item['templateId']}")
    desk.wait_for_function("() => document.querySelector('#preview .pp-apple').style.background")
    designed = cards(desk)
    samples = {"Member": "\u2039Member\u203a", "Level": "\u2039Level\u203a"}
    assert [tuple(r) for r in designed["apple"]["rows"]] == [
        (label, samples.get(label, value)) for label, value in expected]
    assert designed["apple"]["background"] == holder["apple"]["background"]
    assert designed["apple"]["state"] == "active"
    screenshot(desk, "preview-designer-desktop")
    phone_desk = page_for("iphone")
    sign_in(phone_desk, base, EMAIL, PASSWORD)
    phone_desk.goto(f"{base}/dashboard/test/passes/{item['id']}")
    assert cards(phone_desk)["apple"]["rows"] == holder["apple"]["rows"]
    screenshot(phone_desk, "preview-pass-page-iphone")


def test_voided_and_expired_passes_look_it_on_every_page(live_server, page_for,
                                                         owner) -> None:
    base = live_server.url
    later = clock.now() + timedelta(minutes=10)  # within the dashboard session's limits
    expiring = owner.issue(design(owner, expiresAt=clock.isoformat(later)),
                           fieldValues={"member": "Ada Lovelace"})
    voided = owner.issue(design(owner), fieldValues={"member": "Alan Turing"})
    desk = page_for("desktop")
    sign_in(desk, base, EMAIL, PASSWORD)
    desk.goto(f"{base}/dashboard/test/passes/{voided['id']}")
    assert {c["state"] for c in cards(desk).values()} == {"active"}
    desk.once("dialog", lambda dialog: dialog.accept())  # void it as staff do
    desk.get_by_role("button", name="Void pass").click()
    desk.locator(".pp-apple.pp-voided").wait_for()
    staff = cards(desk)
    assert {w: (c["state"], c["stamp"]) for w, c in staff.items()} == {
        "apple": ("voided", "VOIDED"), "google": ("voided", "VOIDED")}
    screenshot(desk, "preview-pass-page-voided")
    phone = page_for("iphone")
    assert phone.goto(f"{base}/p/{voided['shortId']}").status == 410  # the holder's notice
    assert phone.locator(".pp-card").count() == 0

    clock.set_now(lambda: later + timedelta(seconds=1))
    try:
        desk.goto(f"{base}/dashboard/test/passes/{expiring['id']}")
        staff = cards(desk)
        assert {w: (c["state"], c["stamp"]) for w, c in staff.items()} == {
            "apple": ("expired", "EXPIRED"), "google": ("expired", "EXPIRED")}
        screenshot(desk, "preview-pass-page-expired")
        for device, lang, word in (("iphone", "en-US", "EXPIRED"), ("android", "de-DE",
                                                                     "ABGELAUFEN")):
            page = page_for(device, locale=lang)
            assert page.goto(f"{base}/p/{expiring['shortId']}").status == 200
            drawn = cards(page)
            assert [(c["state"], c["stamp"]) for c in drawn.values()] == [("expired", word)]
            screenshot(page, f"preview-holder-expired-{device}")
        desk.goto(f"{base}/dashboard/test/templates/{expiring['templateId']}")
        assert cards(desk)["apple"]["state"] == "active"  # the designer draws a design
    finally:
        clock.set_now(None)
