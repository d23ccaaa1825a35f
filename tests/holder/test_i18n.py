"""Holder pages in English, German, French and Spanish; catalogues complete and compiled."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from tests.holder.conftest import ANDROID, IPHONE

ROOT = Path(__file__).resolve().parents[2] / "webapp"
CATALOGUES = ROOT / "translations"
LANGUAGES = ("de", "fr", "es")


def _holder_messages() -> set[str]:
    """The holder templates' messages, and the pass preview's (a holder page draws it)."""
    found = [*extract_from_dir(str(ROOT / "templates" / "holder"),
                               method_map=[("**.html", "jinja2")]),
             *extract_from_dir(str(ROOT / "templates" / "shared"),
                               method_map=[("**.html", "jinja2")])]
    return {message for _file, _line, message, _comments, _context in found}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_holder_message_is_translated(language: str) -> None:
    with open(CATALOGUES / language / "LC_MESSAGES" / "messages.po", "rb") as fh:
        catalogue = read_po(fh)
    messages = _holder_messages()
    assert len(messages) >= 20
    for message in messages:
        entry = catalogue.get(message)
        assert entry is not None and entry.string and not entry.fuzzy, (language, message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_matches_its_source(language: str) -> None:
    """The committed .mo is what `pybabel compile -d webapp/translations` makes of the .po."""
    folder = CATALOGUES / language / "LC_MESSAGES"
    with open(folder / "messages.po", "rb") as fh:
        source = {m.id: m.string for m in read_po(fh) if m.id and m.string and not m.fuzzy}
    with open(folder / "messages.mo", "rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    assert {k: compiled.gettext(k) for k in source} == source


@pytest.mark.parametrize(("accept", "lang", "apple", "scan"), [
    ("en-US", "en", "Add to Apple Wallet", "Scan with your phone"),
    ("de-DE,de;q=0.9", "de", "Zu Apple Wallet hinzufügen", "Mit dem Smartphone scannen"),
    ("fr-FR", "fr", "Ajouter à Apple Wallet", "Scannez avec votre téléphone"),
    ("es-ES", "es", "Añadir a Apple Wallet", "Escanéalo con tu móvil"),
    ("fr-CA, en;q=0.5", "fr", "Ajouter à Apple Wallet", None),
    ("pt-BR, es;q=0.4", "es", "Añadir a Apple Wallet", None),
    ("ja, zh;q=0.8", "en", "Add to Apple Wallet", None),
    ("", "en", "Add to Apple Wallet", None),
    ("de;q=0, fr;q=0.5", "fr", "Ajouter à Apple Wallet", None),
])
def test_language_comes_from_accept_language(client, issued: dict, accept: str, lang: str,
                                             apple: str, scan: str | None) -> None:
    response = client.get(f"/p/{issued['shortId']}", headers={"Accept-Language": accept})
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    assert response.headers["Content-Language"] == lang
    assert "Accept-Language" in response.headers["Vary"]
    assert apple in html
    if scan:
        assert scan in html


@pytest.mark.parametrize(("accept", "google"), [
    ("de", "Zu Google Wallet hinzufügen"), ("fr", "Ajouter à Google Wallet"),
    ("es", "Añadir a Google Wallet")])
def test_google_button_is_translated(client, issued: dict, accept: str, google: str) -> None:
    html = client.get(f"/p/{issued['shortId']}",
                      headers={"Accept-Language": accept, "User-Agent": ANDROID}).get_data(
        as_text=True)
    assert google in html and "Add to" not in html


@pytest.mark.parametrize(("accept", "text"), [
    ("de", "Dieser Pass ist nicht mehr gültig"), ("fr", "Ce pass n\u2019est plus valable"),
    ("es", "Este pase ya no es válido"), ("en", "This pass is no longer valid")])
def test_voided_page_is_translated(client, api, issued: dict, accept: str, text: str) -> None:
    api.delete(f"/v1/passes/{issued['id']}")
    response = client.get(f"/p/{issued['shortId']}",
                          headers={"Accept-Language": accept, "User-Agent": IPHONE})
    assert response.status_code == 410 and text in response.get_data(as_text=True)


def test_unknown_page_is_translated(client) -> None:
    response = client.get("/p/AAAAAAAAAAAA", headers={"Accept-Language": "es"})
    assert response.status_code == 404
    assert "Pase no encontrado" in response.get_data(as_text=True)
