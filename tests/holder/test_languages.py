"""The pass's own texts on its holder page follow the reader's Accept-Language: any
language the template has (not only the page's four), the default language otherwise;
per-pass values stay as given."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import template_body
from tests.holder.conftest import DESKTOP, issue

GERMAN = {"organizationName": "Acme Fitness", "description": "Mitgliedskarte",
          "fields": {"member": {"label": "Mitglied"},
                     "club": {"label": "Verein", "value": "Innenstadt"}}}
ITALIAN = {"description": "Tessera", "fields": {"member": {"label": "Socio"}}}


@pytest.fixture
def translated(api: Any) -> dict[str, Any]:
    body = template_body(translations={"de": GERMAN, "it": ITALIAN})
    return issue(api, template=body, holderName="Ada Lovelace")


def page(client: Any, item: dict[str, Any], accept: str) -> str:
    response = client.get(f"/p/{item['shortId']}",
                          headers={"User-Agent": DESKTOP, "Accept-Language": accept})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_german_reader_sees_the_german_texts(client: Any, translated: dict[str, Any]) -> None:
    html = page(client, translated, "de-DE,de;q=0.9,en;q=0.5")
    assert '<h1 id="heading">Mitgliedskarte</h1>' in html
    assert "Acme Fitness" in html and "Mitglied" in html
    assert "Verein" in html and "Innenstadt" in html  # a shared value, translated
    assert "Ada Lovelace" in html  # the per-pass value, as given
    for english in ("Gym membership", "Acme Gym", "Downtown", ">Member<", ">Club<"):
        assert english not in html
    assert '<html lang="de"' in html  # the page's own words are German too
    assert '<header class="intro">' in html  # the same language: said once, on the page


def test_english_reader_sees_the_default_texts(client: Any, translated: dict[str, Any]) -> None:
    html = page(client, translated, "en-US,en;q=0.9")
    assert '<h1 id="heading">Gym membership</h1>' in html
    assert "Acme Gym" in html and "Downtown" in html and "Ada Lovelace" in html
    for german in ("Mitgliedskarte", "Acme Fitness", "Innenstadt", "Verein"):
        assert german not in html


def test_a_language_the_page_does_not_speak(client: Any, translated: dict[str, Any]) -> None:
    html = page(client, translated, "it-IT,it;q=0.9,de;q=0.5")
    assert '<h1 id="heading">Tessera</h1>' in html  # the pass in Italian
    assert "Socio" in html and "Downtown" in html  # what Italian leaves out: the default
    assert '<html lang="de"' in html  # the page's own words: the first language it has
    assert '<header class="intro" lang="it">' in html  # the pass's texts say they are Italian
    assert '<section class="pass-column" aria-labelledby="heading" lang="it">' in html


def test_no_match_falls_back_to_the_default(client: Any, translated: dict[str, Any]) -> None:
    html = page(client, translated, "ja,fr;q=0.5")
    assert '<h1 id="heading">Gym membership</h1>' in html
    assert '<html lang="fr"' in html and '<header class="intro" lang="en">' in html
    response = client.get(f"/p/{translated['shortId']}", headers={"User-Agent": DESKTOP})
    assert '<h1 id="heading">Gym membership</h1>' in response.get_data(as_text=True)


def test_a_template_without_languages_says_nothing_of_its_texts(client: Any, api: Any) -> None:
    item = issue(api, holderName="Ada Lovelace")
    html = page(client, item, "de")
    assert '<header class="intro">' in html  # its words may be German: no claim either way
