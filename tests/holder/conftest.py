"""Holder-page fixtures: passes issued through the API, and a reader for the pages."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api, app_with
from tests.google.conftest import (  # noqa: F401  (fixtures: a fake Google on loopback)
    demo_account,
    demo_account_file,
    fake_google,
    fake_google_server,
    google_overrides,
)

IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
IPAD = ("Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        "Version/17.5 Mobile/15E148 Safari/604.1")
ANDROID = ("Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/131.0.0.0 Mobile Safari/537.36")
DESKTOP = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/131.0.0.0 Safari/537.36")


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path,
        fake_google: Any, demo_account_file: str) -> Iterator[Flask]:  # noqa: F811
    """The app with Google Wallet pointed at the fake Google and jobs run at once, so a
    pass's Google object is written before its page is opened (deterministic buttons)."""
    yield from app_with(database, database_url, tmp_path,
                        google_overrides(fake_google, demo_account_file))


def issue(api: Api, *, template: dict[str, Any] | None = None, **pass_body: Any
          ) -> dict[str, Any]:
    """A template (the generic factory unless given) and a pass issued from it."""
    body = template or template_body()
    created = api.post("/v1/templates", body)
    assert created.status_code == 201, created.get_json()
    values = {"templateId": created.get_json()["id"], "fieldValues": {"member": "Ada Lovelace"}}
    values.update(pass_body)
    issued = api.post("/v1/passes", values)
    assert issued.status_code == 201, issued.get_json()
    return issued.get_json()


@pytest.fixture
def issued(api: Api) -> dict[str, Any]:
    """A generic pass for both wallets, holder Ada."""
    return issue(api, holderName="Ada Lovelace")


@pytest.fixture
def link(api: Api) -> Callable[[dict[str, Any]], str]:
    """The path of a new download link to a pass: `/d/<token>`."""
    def make(item: dict[str, Any], seconds: int = 3600) -> str:
        created = api.post(f"/v1/passes/{item['id']}/download-links",
                           {"expiresInSeconds": seconds})
        assert created.status_code == 201
        return "/d/" + created.get_json()["url"].rsplit("/", 1)[1]

    return make


def wallets_in_order(html: str) -> list[str]:
    """The wallet buttons of a page, top to bottom."""
    return re.findall(r'data-wallet="(apple|google)"', html)


def meta(html: str, prop: str) -> str | None:
    """The content of a `<meta property=...>` or `<meta name=...>` tag."""
    match = re.search(rf'<meta (?:property|name)="{re.escape(prop)}" content="([^"]*)"', html)
    return match.group(1) if match else None


LANGUAGES = ("en", "de", "fr", "es")
# Why a wallet is not offered, as the page says it in each language.
GOOGLE_NOTE = {
    "en": "Google Wallet is not available for this pass right now: its issuer has to finish "
          "setting it up.",
    "de": "Google Wallet ist für diesen Pass gerade nicht verfügbar: Der Aussteller muss die "
          "Einrichtung noch abschließen.",
    "fr": "Google Wallet n\u2019est pas disponible pour ce pass pour le moment : son émetteur doit "
          "encore terminer la configuration.",
    "es": "Google Wallet no está disponible para este pase en este momento: su emisor aún "
          "tiene que terminar de configurarlo.",
}
APPLE_NOTE = {lang: text.replace("Google Wallet", "Apple Wallet")
              for lang, text in GOOGLE_NOTE.items()}


def assert_holder_page(response: Any, language: str) -> str:
    """The styled holder page in `language`, with the pages' strict headers; its HTML."""
    assert response.mimetype == "text/html"
    assert response.headers["Content-Language"] == language
    assert response.headers["Content-Security-Policy"].startswith(
        "default-src 'none'; img-src 'self'; style-src 'self' 'sha256-")
    assert response.headers["X-Frame-Options"] == "DENY"
    html = response.get_data(as_text=True)
    assert f'<html lang="{language}">' in html
    assert '<link rel="stylesheet" href="/static/holder/holder.css?v=' in html
    assert '<main class="layout">' in html and '<article class="pp-card' in html
    return html
