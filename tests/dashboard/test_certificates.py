"""Certificates page: Apple certificates and Google issuers, never showing a secret again."""

from __future__ import annotations

import io
import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import base_overrides
from tests.dashboard.conftest import Dash, sign_in, text
from tests.support import pki as test_pki
from tests.support.fake_google import FakeGoogle
from webapp import create_app
from webapp.wallets.google import client as google_client

ISSUER = "3388000000022223333"


def _upload_p12(dash: Dash, pki: test_pki.Pki, password: str = "secret") -> Any:
    return dash.post("/dashboard/live/certificates/apple", {
        "kind": "p12", "password": password, "p12": (io.BytesIO(pki.p12), "cert.p12")},
        htmx=True, header=True, content_type="multipart/form-data")


def test_empty_page_explains_what_is_needed(dash: Dash) -> None:
    page = text(dash.get("/dashboard/live/certificates"))
    assert "No Apple certificate yet." in page and "No Google issuer yet." in page


def test_upload_p12_lists_what_the_certificate_says(dash: Dash, pki: test_pki.Pki) -> None:
    response = _upload_p12(dash, pki)
    assert response.status_code == 201
    page = text(response)
    assert f"Certificate for {test_pki.PASS_TYPE} added." in page
    assert f"<code>{test_pki.PASS_TYPE}</code>" in page and f"<code>{test_pki.TEAM}</code>" in page
    assert "PRIVATE KEY" not in page and "Expired" not in page


def test_upload_pem_pair_with_wwdr(dash: Dash, pki: test_pki.Pki) -> None:
    response = dash.post("/dashboard/live/certificates/apple", {
        "kind": "pem", "certificate": (io.BytesIO(pki.cert_pem), "cert.pem"),
        "key": (io.BytesIO(pki.key_pem), "key.pem"), "wwdr": (io.BytesIO(pki.wwdr_pem), "w.pem"),
        "name": "Members"}, htmx=True, header=True, content_type="multipart/form-data")
    assert response.status_code == 201
    assert "<td data-label=\"Name\">Members" in text(response)


@pytest.mark.parametrize("password", ["wrong", ""])
def test_bad_upload_is_422_with_the_reason(dash: Dash, pki: test_pki.Pki, password: str) -> None:
    response = _upload_p12(dash, pki, password)
    assert response.status_code == 422
    assert 'id="apple-error"' in text(response)
    assert "No Apple certificate yet." in text(response)


def test_expiring_certificate_is_flagged(app: Flask, dash: Dash, pki: test_pki.Pki,
                                         org: dict[str, Any]) -> None:
    from datetime import timedelta

    from webapp import clock

    _upload_p12(dash, pki)
    expires = pki.chain.identity.certificate.not_valid_after_utc
    clock.set_now(lambda: expires - timedelta(days=10))
    try:
        dash = sign_in(dash.client, org["email"], org["password"])  # sessions expire: sign in then
        page = text(dash.get("/dashboard/live/certificates"))
        assert '<span class="badge amber">Expires in 9 days</span>' in page or \
            '<span class="badge amber">Expires in 10 days</span>' in page
        clock.set_now(lambda: expires + timedelta(days=1))
        dash = sign_in(dash.client, org["email"], org["password"])
        assert '<span class="badge red">Expired</span>' in text(
            dash.get("/dashboard/live/certificates"))
    finally:
        clock.set_now(None)


def test_delete_certificate_and_another_organizations_is_404(dash: Dash, other_dash: Dash,
                                                             pki: test_pki.Pki) -> None:
    page = text(_upload_p12(dash, pki))
    cert_id = re.search(r"/certificates/apple/(cert_[0-9a-z]+)/delete", page).group(1)
    assert f'hx-confirm="Delete the certificate for {test_pki.PASS_TYPE}?"' in page
    assert other_dash.post(f"/dashboard/live/certificates/apple/{cert_id}/delete"
                           ).status_code == 404
    response = dash.post(f"/dashboard/live/certificates/apple/{cert_id}/delete", htmx=True,
                         header=True)
    assert response.status_code == 200
    assert "were deleted" in text(response) and cert_id not in text(response)


def test_add_google_issuer_from_a_file_or_pasted(dash: Dash, account: dict[str, Any]) -> None:
    response = dash.post("/dashboard/live/certificates/google", {
        "issuer_id": ISSUER, "service_account": (io.BytesIO(json.dumps(account).encode()),
                                                 "key.json")},
        htmx=True, header=True, content_type="multipart/form-data")
    assert response.status_code == 201
    page = text(response)
    assert f"<code>{ISSUER}</code>" in page and account["client_email"] in page
    assert account["private_key_id"] not in page and "PRIVATE KEY" not in page
    again = dash.post("/dashboard/live/certificates/google", {
        "issuer_id": ISSUER, "service_account_text": json.dumps(account)})
    assert again.status_code == 422 and f"Issuer {ISSUER} is added already." in text(again)


@pytest.mark.parametrize(("data", "field"), [
    ({"issuer_id": "abc", "service_account_text": "{}"}, "issuer_id"),
    ({"issuer_id": ISSUER, "service_account_text": "{not json"}, "service_account"),
])
def test_bad_google_issuer_is_422_next_to_the_field(dash: Dash, data: dict[str, str],
                                                    field: str) -> None:
    response = dash.post("/dashboard/live/certificates/google", data, htmx=True, header=True)
    assert response.status_code == 422
    assert f'id="err-{field}"' in text(response)


@pytest.fixture(scope="module")
def fake_google() -> Iterator[FakeGoogle]:
    fake = FakeGoogle().start()
    yield fake
    fake.stop()


@pytest.fixture
def google_app(database: Any, database_url: str, tmp_path: Path,
               fake_google: FakeGoogle) -> Iterator[Flask]:
    fake_google.reset()
    google_client._clients.clear()
    app = create_app({**base_overrides(tmp_path, database_url),
                      "GOOGLE_WALLET_API_URL": f"{fake_google.base}/walletobjects/v1",
                      "GOOGLE_TOKEN_URI": f"{fake_google.base}/token"})
    yield app
    with app.app_context():
        from webapp.extensions import db

        db.engine.dispose()


@pytest.mark.parametrize(("allowed", "known", "expected"), [
    ({ISSUER}, True, "Access confirmed"),
    ({"3388000000099999999"}, True, "has no access to issuer"),
    ({ISSUER}, False, "Google refused the service-account key"),
])
def test_check_google_access(google_app: Flask, fake_google: FakeGoogle,
                             account: dict[str, Any], allowed: set[str], known: bool,
                             expected: str) -> None:
    from webapp.services.accounts import organizations

    email = f"g-{uuid.uuid4().hex[:8]}@co.test"
    with google_app.app_context():
        organizations.create("G Co", email, "correct horse battery")
    if known:
        fake_google.register(account, allowed)
    dash = sign_in(google_app.test_client(), email, "correct horse battery")
    page = text(dash.post("/dashboard/live/certificates/google", {
        "issuer_id": ISSUER, "service_account_text": json.dumps(account)}))
    row_id = re.search(r"/certificates/google/(gis_[0-9a-z]+)/check", page).group(1)
    response = dash.post(f"/dashboard/live/certificates/google/{row_id}/check", htmx=True,
                         header=True)
    assert response.status_code == 200
    assert expected in text(response)
