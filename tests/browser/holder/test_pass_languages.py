"""A translated pass on its holder page in Chromium: a German browser reads the German
texts, an English one the default texts; per-pass values stay as given. Screenshots:
tests/browser/screenshots/holder-languages-<lang>.png."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import template_body
from tests.support.browser import screenshot

GERMAN = {"organizationName": "Acme Fitnessstudio", "description": "Goldmitgliedschaft",
          "fields": {"member": {"label": "Mitglied"}, "level": {"label": "Stufe"},
                     "club": {"label": "Studio", "value": "Innenstadt"}}}
EXPECTED = {
    "en": {"heading": "Gold membership", "texts": ["Acme Gym", "Member", "Club", "Downtown"],
           "absent": ["Goldmitgliedschaft", "Innenstadt", "Mitglied"]},
    "de": {"heading": "Goldmitgliedschaft",
           "texts": ["Acme Fitnessstudio", "Mitglied", "Studio", "Innenstadt"],
           "absent": ["Gold membership", "Downtown", "Acme Gym"]},
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_pass_follows_the_browsers_language(live_server: Any, page_for: Any, issuer: Any,
                                                lang: str) -> None:
    body = template_body(description="Gold membership", translations={"de": GERMAN})
    item = issuer.issue(body, holderName="Ada Lovelace",
                        fieldValues={"member": "Ada Lovelace", "level": "Gold"})
    page = page_for("desktop", locale={"en": "en-US", "de": "de-DE"}[lang])
    response = page.goto(f"{live_server.url}/p/{item['shortId']}")
    assert response.status == 200
    expected = EXPECTED[lang]
    assert page.locator("h1#heading").inner_text() == expected["heading"]
    shown = page.locator("main").text_content() or ""  # as written, not as styled
    for text in [*expected["texts"], "Ada Lovelace", "Gold"]:  # per-pass values as given
        assert text in shown, text
    for text in expected["absent"]:
        assert text not in shown, text
    screenshot(page, f"holder-languages-{lang}")
