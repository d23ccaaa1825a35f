"""A wallet button only when that wallet can take the pass now; otherwise the page says why,
in the holder's language, and the wallet's link answers that page instead of an error."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api, app_with
from tests.google.conftest import google_overrides
from tests.holder.conftest import (
    ANDROID,
    APPLE_NOTE,
    DESKTOP,
    GOOGLE_NOTE,
    IPHONE,
    LANGUAGES,
    assert_holder_page,
    issue,
    meta,
    wallets_in_order,
)
from webapp import clock

LOCAL = "http://127.0.0.1:5000"  # what `make run` serves on: Google cannot fetch images there
GOOGLE_BUTTON = {"en": "Add to Google Wallet", "de": "Zu Google Wallet hinzufügen",
                 "fr": "Ajouter à Google Wallet", "es": "Añadir a Google Wallet"}
NOT_FOUND = {"en": "Pass not found", "de": "Pass nicht gefunden", "fr": "Pass introuvable",
             "es": "Pase no encontrado"}


def _get(client: Any, path: str, agent: str = ANDROID, language: str = "en") -> Any:
    return client.get(path, headers={"User-Agent": agent, "Accept-Language": language})


@pytest.fixture
def fresh(database: dict[str, Any], database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """A fresh `make run`: no Google credentials (the generated demo issuer, which Google
    does not know), served on a local address."""
    yield from app_with(database, database_url, tmp_path,
                        {"BASE_URL": LOCAL, "JOBS_SYNCHRONOUS": True})


@pytest.fixture
def fresh_api(fresh: Flask) -> Api:
    from webapp.services.accounts import organizations

    with fresh.app_context():
        created = organizations.create("Demo Organization", "demo@example.com")
    return Api(fresh.test_client(), created.keys["test"])


def download_path(api: Api, item: dict[str, Any]) -> str:
    """The path of a new download link to the pass: `/d/<token>`."""
    created = api.post(f"/v1/passes/{item['id']}/download-links")
    assert created.status_code == 201
    return "/d/" + created.get_json()["url"].rsplit("/", 1)[1]


def with_image(api: Api, png: Any) -> dict[str, Any]:
    """The generic template with a logo."""
    asset = api.post("/v1/assets", {"slot": "logo", "data": png(160, 50)}).get_json()
    return template_body(images={"logo": asset["id"]})


@pytest.mark.parametrize("language", LANGUAGES)
def test_fresh_install_with_an_image_offers_no_google_button(fresh_api: Api, png: Any,
                                                             language: str) -> None:
    item = issue(fresh_api, template=with_image(fresh_api, png))
    assert fresh_api.get(f"/v1/passes/{item['id']}").get_json()["artifacts"]["google"] == \
        {"ready": False, "reason": "image_not_public"}
    response = _get(fresh_api.client, f"/p/{item['shortId']}", ANDROID, language)
    assert response.status_code == 200
    html = assert_holder_page(response, language)
    assert wallets_in_order(html) == ["apple"]
    assert "/google" not in html and GOOGLE_BUTTON[language] not in html
    assert GOOGLE_NOTE[language] in html
    # the card drawn is the offered wallet's, not the phone's own wallet's
    assert '<article class="pp-card pp-apple' in html and "pp-google" not in html


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("image", [True, False])
def test_fresh_install_google_links_answer_the_page_saying_why(
        fresh_api: Api, png: Any, language: str, image: bool) -> None:
    template = with_image(fresh_api, png) if image else template_body()
    item = issue(fresh_api, template=template)
    for path in (f"/p/{item['shortId']}", download_path(fresh_api, item)):
        response = _get(fresh_api.client, f"{path}/google", ANDROID, language)
        # 200: what the holder gets is the pass's page, fully usable (the card, Apple);
        # nothing is wrong with the request and no retry would change the answer.
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-store"
        assert "Retry-After" not in response.headers
        html = assert_holder_page(response, language)
        assert wallets_in_order(html) == ["apple"]
        assert f'href="{path}/apple.pkpass"' in html
        assert GOOGLE_NOTE[language] in html and GOOGLE_BUTTON[language] not in html


def test_a_wallet_link_answer_points_at_the_page_not_at_itself(fresh_api: Api) -> None:
    item = issue(fresh_api)
    html = _get(fresh_api.client, f"/p/{item['shortId'].lower()}/google",
                DESKTOP).get_data(as_text=True)
    assert meta(html, "og:url") == f"{LOCAL}/p/{item['shortId']}"
    assert "scan-code" in html  # (its code is of the same address; decoded in the browser)


@pytest.fixture
def local_app(database: dict[str, Any], database_url: str, tmp_path: Path, fake_google: Any,
              demo_account_file: str) -> Iterator[Flask]:
    """Google credentials that work, on an address Google cannot fetch images from."""
    yield from app_with(database, database_url, tmp_path,
                        {**google_overrides(fake_google, demo_account_file), "BASE_URL": LOCAL})


def test_images_google_cannot_fetch_hide_the_button_even_with_credentials(
        local_app: Flask, png: Any) -> None:
    from webapp.services.accounts import organizations

    with local_app.app_context():
        created = organizations.create("Acme", "o@acme.test", "correct horse battery")
    api = Api(local_app.test_client(), created.keys["test"])
    item = issue(api, template=with_image(api, png))
    html = _get(api.client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert wallets_in_order(html) == ["apple"] and GOOGLE_NOTE["en"] in html
    plain = issue(api)  # no image: Google can take it
    html = _get(api.client, f"/p/{plain['shortId']}").get_data(as_text=True)
    assert wallets_in_order(html) == ["google", "apple"] and GOOGLE_NOTE["en"] not in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_apple_link_of_an_expired_certificate_answers_the_page(
        client: Any, live_api: Api, org: dict, app: Flask, language: str) -> None:
    from tests.support import pki
    from webapp.services.credentials import identities

    with app.app_context():
        cert = identities.add_apple(org["id"], p12=pki.make().p12, password="secret")
        expires = cert.expires_at
    item = issue(live_api, template=template_body(platforms={"apple": True, "google": False}))
    clock.set_now(lambda: expires + timedelta(days=1))  # (a download link would be expired)
    response = _get(client, f"/p/{item['shortId']}/apple.pkpass", IPHONE, language)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    html = assert_holder_page(response, language)
    assert wallets_in_order(html) == [] and APPLE_NOTE[language] in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_wallet_links_of_unknown_passes_are_the_styled_404(client: Any, api: Api,
                                                           language: str) -> None:
    apple_only = issue(api, platforms={"google": False})
    for path in ("/p/AAAAAAAAAAAA/google", "/p/AAAAAAAAAAAA/apple.pkpass",
                 "/d/" + "x" * 32 + "/google", "/d/" + "x" * 32 + "/apple.pkpass",
                 f"/p/{apple_only['shortId']}/google"):
        response = _get(client, path, ANDROID, language)
        assert response.status_code == 404, path
        assert response.headers["Content-Language"] == language
        html = response.get_data(as_text=True)
        assert re.search(rf"<h1>{NOT_FOUND[language]}</h1>", html), (path, html[:400])
        assert '<link rel="stylesheet" href="/static/holder/holder.css?v=' in html
        assert "Ada" not in html and "Acme" not in html


def test_apple_link_that_cannot_sign_answers_the_page_without_the_button(
        client: Any, api: Api, app: Flask, png: Any) -> None:
    """The page cannot foresee an image that fails when the pass is signed: the tap can."""
    from sqlalchemy import update

    from webapp.db.transaction import transaction
    from webapp.models import Asset

    template = with_image(api, png)
    item = issue(api, template=template)
    html = _get(client, f"/p/{item['shortId']}", IPHONE).get_data(as_text=True)
    assert wallets_in_order(html) == ["apple", "google"]
    with app.app_context(), transaction() as session:
        session.execute(update(Asset).where(
            Asset.id == template["definition"]["images"]["logo"]).values(data=b"not a picture"))
    response = _get(client, f"/p/{item['shortId']}/apple.pkpass", IPHONE, "de")
    assert response.status_code == 200
    html = assert_holder_page(response, "de")
    assert wallets_in_order(html) == ["google"] and APPLE_NOTE["de"] in html
