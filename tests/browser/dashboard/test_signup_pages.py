"""Issue 33's sign-up page in Chromium: a person signs up on a phone (the form, a mistake
kept and explained, the pass's page after), the same email again (no second pass, nothing of
the pass shown), staff make a new link (the old one says sign-ups are closed, in German),
and the A4 poster prints on one A4 sheet. Screenshots in tests/browser/screenshots/."""

from __future__ import annotations

import base64
import io
import re
from typing import Any

from PIL import Image

from tests.browser.dashboard.conftest import PASSWORD, organization_key, sign_in
from tests.browser.test_accessibility import serious_violations
from tests.support.browser import api, screenshot

EMAIL = "staff@signup.test"


def _logo() -> str:
    out = io.BytesIO()
    Image.new("RGB", (480, 150), "#f5b700").save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


def _template(server: Any, key: str) -> dict[str, Any]:
    logo = api(server, key, "POST", "assets", {"slot": "logo", "data": _logo()})["id"]
    return api(server, key, "POST", "templates", {"name": "Climbing club", "type": "generic",
                                                   "definition": {
        "schemaVersion": 1, "type": "generic", "description": "Boulder Club membership",
        "organizationName": "Boulder Club", "images": {"logo": logo},
        "colors": {"background": "#0b5d3b", "foreground": "#ffffff"},
        "platforms": {"apple": True, "google": True},
        "config": {"fields": {"primary": [{"key": "member", "label": "Member",
                                           "binding": "perPass"}],
                              "secondary": [{"key": "phone", "label": "Phone",
                                             "binding": "perPass"}]}},
        "enrollment": {"enabled": True, "consent": "I agree to the club's safety rules.",
                       "fields": [{"key": "holderName", "required": True},
                                  {"key": "holderEmail", "required": True},
                                  {"key": "phone", "required": False}]}}})


def test_a_person_signs_up_on_a_phone_then_again(page_for: Any, live_server: Any) -> None:
    key = organization_key(live_server, "Boulder Club", EMAIL)
    template = _template(live_server, key)
    url = template["enrollmentUrl"]
    page = page_for("iphone")
    response = page.goto(url)
    assert response is not None and response.status == 200
    assert page.locator("input[name=holderName]").get_attribute("autocomplete") == "name"
    assert page.locator("input[name=holderEmail]").get_attribute("autocomplete") == "email"
    assert page.locator("input[name=phone]").get_attribute("autocomplete") == "tel"
    trap = page.locator("input[name=leave_empty]").bounding_box()
    assert trap is not None and trap["x"] < -1000  # the honeypot: off the screen
    box = page.locator(".signup-button").bounding_box()
    assert box is not None and box["width"] > 300  # thumb-sized on a 390 px phone
    screenshot(page, "signup-phone")
    assert serious_violations(page) == []

    page.fill("input[name=holderName]", "Alex Honnold")
    page.fill("input[name=holderEmail]", "alex@example")
    page.click(".signup-button")
    page.locator(".problem", has_text="Enter an email address").wait_for()
    assert page.locator("input[name=holderName]").input_value() == "Alex Honnold"
    assert page.locator("#problem-consent").is_visible()
    screenshot(page, "signup-phone-problems")
    assert serious_violations(page) == []

    page.fill("input[name=holderEmail]", "alex@example.com")
    page.check("#consent")
    page.click(".signup-button")
    page.wait_for_url(f"{live_server.url}/p/*")
    assert "Boulder Club" in page.content()
    screenshot(page, "signup-phone-pass")

    again = page_for("iphone")
    again.goto(url)
    again.fill("input[name=holderName]", "Someone else")
    again.fill("input[name=holderEmail]", "ALEX@example.com")
    again.check("#consent")
    again.click(".signup-button")
    again.locator("h1", has_text="This address is already signed up").wait_for()
    assert "/p/" not in again.content() and again.url == url
    screenshot(again, "signup-phone-already")
    listed = api(live_server, key, "GET", "passes")["data"]
    assert [(p["source"], p["holderName"]) for p in listed] == [("enrollment", "Alex Honnold")]


def test_staff_make_a_new_link_and_print_the_poster(page_for: Any, live_server: Any) -> None:
    key = organization_key(live_server, "Boulder Club", EMAIL)
    template = _template(live_server, key)
    old = template["enrollmentUrl"]
    person = page_for("android")
    person.goto(old)
    person.fill("input[name=holderName]", "Lynn Hill")
    person.fill("input[name=holderEmail]", "lynn@example.com")
    person.check("#consent")
    person.click(".signup-button")
    person.wait_for_url(f"{live_server.url}/p/*")
    page = page_for("desktop")
    sign_in(page, live_server.url, EMAIL, PASSWORD)
    funnel = page.locator("#signup-funnel")
    assert funnel.locator("[data-count=signupPageViews] .funnel-value").inner_text() == "1"
    assert funnel.locator("[data-count=signups] .funnel-value").inner_text() == "1"
    funnel.screenshot(path=str(screenshot(page, "signup-overview-funnel")))
    page.goto(f"{live_server.url}/dashboard/test/templates/{template['id']}#signup")
    page.locator("#signup-link", has_text=old).wait_for()
    page.locator("#signup").screenshot(path=str(screenshot(page, "signup-settings")))
    assert serious_violations(page, "#signup") == []

    with page.expect_popup() as popup:
        page.click("#signup-poster")
    poster = popup.value
    poster.wait_for_load_state()
    assert poster.locator("#poster svg[role=img]").count() == 1
    assert poster.locator("#poster .url").inner_text() == old
    screenshot(poster, "signup-poster")
    poster.emulate_media(media="print")
    pdf = poster.pdf(prefer_css_page_size=True, print_background=True)
    assert _pages(pdf) == 1  # one sheet
    width, height = _media_box(pdf)
    assert abs(width - 595.3) < 1.5 and abs(height - 841.9) < 1.5  # A4 (210 x 297 mm) in pt

    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#signup-new-link")
    page.locator(".flash", has_text="New sign-up link made").wait_for()
    new = page.locator("#signup-link code").inner_text()
    assert new != old and new.startswith(f"{live_server.url}/join/")

    visitor = page_for("android", locale="de-DE")
    closed = visitor.goto(old)
    assert closed is not None and closed.status == 410
    visitor.locator("h1", has_text="Anmeldungen sind geschlossen").wait_for()
    screenshot(visitor, "signup-closed-de")
    assert serious_violations(visitor) == []
    opened = visitor.goto(new)
    assert opened is not None and opened.status == 200


def _pages(pdf: bytes) -> int:
    """How many pages Chromium's PDF has (its /Type /Page objects, not /Pages)."""
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def _media_box(pdf: bytes) -> tuple[float, float]:
    """The first page size of the PDF, in points."""
    found = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    assert found, "no MediaBox"
    return float(found.group(1)), float(found.group(2))
