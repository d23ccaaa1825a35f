"""The save link when it cannot send the holder to Google: the pass's page saying why, in the
holder's language - 503 with Retry-After when Google did not answer (a minute later it may),
200 without the button when Google refused for good - never a bare error."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.holder.conftest import (
    ANDROID,
    GOOGLE_NOTE,
    LANGUAGES,
    assert_holder_page,
    wallets_in_order,
)
from tests.support.fake_google import FakeGoogle
from webapp.db.transaction import DISPATCHER

UNREACHABLE = {
    "en": "Google Wallet is not reachable right now. Please try again in a minute.",
    "de": "Google Wallet ist gerade nicht erreichbar. Bitte versuchen Sie es in einer Minute "
          "noch einmal.",
    "fr": "Google Wallet est injoignable pour le moment. Veuillez réessayer dans une minute.",
    "es": "No se puede conectar con Google Wallet en este momento. Vuelve a intentarlo en un "
          "minuto.",
}


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    return api.post("/v1/templates", template_body()).get_json()


def _tap(api: Api, path: str, language: str = "en") -> Any:
    return api.client.get(f"{path}/google",
                          headers={"User-Agent": ANDROID, "Accept-Language": language})


def _download_path(api: Api, item: dict[str, Any]) -> str:
    url = api.post(f"/v1/passes/{item['id']}/download-links").get_json()["url"]
    return "/d/" + url.rsplit("/", 1)[1]


@pytest.mark.usefixtures("patient_tap")
@pytest.mark.parametrize("language", LANGUAGES)
def test_google_down_on_tap_answers_the_page_asking_to_try_again(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle, language: str) -> None:
    app.extensions[DISPATCHER] = None  # the job never ran: the tap writes the object
    p = issue(api, template, fieldValues={"member": "Ada"})
    fake_google.fail("POST", "/walletobjects/v1/genericClass", 503, 503)
    for path in (f"/p/{p['shortId']}", _download_path(api, p)):
        response = _tap(api, path, language)
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "30"
        assert response.headers["Cache-Control"] == "no-store"
        html = assert_holder_page(response, language)
        assert 'role="status"><svg' in html and UNREACHABLE[language] in html
        # The button stays: a tap a minute later tries again.
        assert wallets_in_order(html) == ["google", "apple"]
        assert f'href="{path}/google"' in html and GOOGLE_NOTE[language] not in html
    assert _tap(api, f"/p/{p['shortId']}").status_code == 302  # Google is back


def test_google_refusing_on_tap_answers_the_page_without_the_button(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle,
        demo_account: dict) -> None:
    app.extensions[DISPATCHER] = None
    p = issue(api, template, fieldValues={"member": "Ada"})
    page = f"/p/{p['shortId']}"
    html = api.client.get(page, headers={"User-Agent": ANDROID}).get_data(as_text=True)
    assert wallets_in_order(html) == ["google", "apple"]  # not written yet: a tap writes it
    fake_google.register(demo_account, set())  # the account is not a user of the issuer
    response = _tap(api, page)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert "Retry-After" not in response.headers
    html = assert_holder_page(response, "en")
    assert wallets_in_order(html) == ["apple"] and GOOGLE_NOTE["en"] in html
    assert UNREACHABLE["en"] not in html
    html = api.client.get(page, headers={"User-Agent": ANDROID}).get_data(as_text=True)
    assert wallets_in_order(html) == ["apple"] and GOOGLE_NOTE["en"] in html
    fake_google.register(demo_account, {ISSUER})  # fixed in the console: the link picks it up
    assert _tap(api, page).status_code == 302
    html = api.client.get(page, headers={"User-Agent": ANDROID}).get_data(as_text=True)
    assert wallets_in_order(html) == ["google", "apple"]
