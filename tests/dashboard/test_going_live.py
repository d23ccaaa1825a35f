"""Going live: the certificates page explains how to get an Apple Pass Type ID certificate
and a Google issuer, takes a .p12 or PEM files as two separate forms, and every Live page of
an organization without a working credential gives the same single next step."""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, sign_in, text
from tests.support import pki as test_pki

ISSUER = "3388000000022224444"
NEXT_STEP = ('<a class="btn primary" href="/dashboard/live/certificates">Next step: add a '
             'certificate or issuer</a>')


@pytest.fixture
def template_id(api: Api) -> str:
    response = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                          "definition": definition()})
    return response.get_json()["id"]


def _upload(dash: Dash, data: dict[str, Any]) -> Any:
    return dash.post("/dashboard/live/certificates/apple", data, htmx=True, header=True,
                     content_type="multipart/form-data")


def _p12(dash: Dash, pki: test_pki.Pki) -> Any:
    return _upload(dash, {"kind": "p12", "password": "secret",
                          "p12": (io.BytesIO(pki.p12), "cert.p12")})


def _issuer(dash: Dash, account: dict[str, Any]) -> None:
    response = dash.post("/dashboard/live/certificates/google", {
        "issuer_id": ISSUER, "service_account_text": json.dumps(account)})
    assert response.status_code == 201, text(response)


def _form(page: str, form_id: str) -> str:
    start = page.index(f'id="{form_id}"')
    return page[start:page.index("</form>", start)]


# ---- the guides ------------------------------------------------------------------------

def test_the_apple_guide_walks_through_getting_the_certificate(dash: Dash) -> None:
    page = text(dash.get("/dashboard/live/certificates"))
    guide = page[page.index('<details class="guide" id="apple-guide" open>'):]
    guide = guide[:guide.index("</details>")]
    steps = re.findall(r"<li><strong>(.*?)</strong>", guide)
    assert steps == ["Sign in", "Register a Pass Type ID:",
                     "Make a certificate signing request (CSR)", "Create the certificate:",
                     "Turn it into what this page takes", "Apple's intermediate certificate:"]
    for words in ("https://developer.apple.com/account/resources/identifiers/list/passTypeId",
                  "Identifiers → <kbd>+</kbd> → <em>Pass Type IDs</em>",
                  "<code>pass.com.example.membership</code>",
                  "Keychain Access → Certificate Assistant → Request a Certificate From a "
                  "Certificate Authority",
                  '<code class="cmd">openssl req -new -newkey rsa:2048 -nodes -keyout pass.key '
                  "-out pass.csr",
                  "<strong>Download</strong> the certificate (<code>pass.cer</code>)",
                  "<em>Export</em> → <em>.p12</em>",
                  '<code class="cmd">openssl x509 -inform der -in pass.cer -out pass.pem</code>',
                  "https://www.apple.com/certificateauthority/"):
        assert words in guide, words


def test_the_google_guide_walks_through_issuer_and_service_account(dash: Dash) -> None:
    page = text(dash.get("/dashboard/live/certificates"))
    guide = page[page.index('<details class="guide" id="google-guide" open>'):]
    guide = guide[:guide.index("</details>")]
    for words in ("https://pay.google.com/business/console", "<strong>Issuer ID</strong>",
                  "https://console.cloud.google.com/apis/library/walletobjects.googleapis.com",
                  "<em>Enable</em> the <em>Google Wallet API</em>",
                  "<em>Create service account</em>",
                  "<em>Add key</em> → <em>Create new key</em> → <em>JSON</em>",
                  "<em>Users</em> → <em>Invite a user</em>", "<em>Developer</em>",
                  "<em>Check access</em>"):
        assert words in guide, words


def test_a_guide_folds_away_once_its_credential_is_added(dash: Dash, pki: test_pki.Pki,
                                                         account: dict[str, Any]) -> None:
    _p12(dash, pki)
    page = text(dash.get("/dashboard/live/certificates"))
    assert '<details class="guide" id="apple-guide" >' in page
    assert '<details class="guide" id="google-guide" open>' in page
    _issuer(dash, account)
    page = text(dash.get("/dashboard/live/certificates"))
    assert '<details class="guide" id="google-guide" >' in page


# ---- two clear choices -----------------------------------------------------------------

def test_a_p12_and_pem_files_are_two_separate_forms(dash: Dash) -> None:
    page = text(dash.get("/dashboard/live/certificates"))
    p12, pem = _form(page, "apple-p12"), _form(page, "apple-pem")
    assert '<input type="hidden" name="kind" value="p12">' in p12
    assert 'name="p12"' in p12 and 'name="certificate"' not in p12 and 'name="key"' not in p12
    assert "<h3>A .p12 file</h3>" in p12 and "Upload .p12</button>" in p12
    assert '<input type="hidden" name="kind" value="pem">' in pem
    assert 'name="certificate"' in pem and 'name="key"' in pem and 'name="p12"' not in pem
    assert "<h3>PEM files</h3>" in pem and "Upload PEM files</button>" in pem
    for form in (p12, pem):
        assert 'name="wwdr"' in form and 'name="name"' in form and 'name="password"' in form
    assert 'type="radio"' not in page


@pytest.mark.parametrize(("data", "message"), [
    ({"kind": "p12"}, "Choose the .p12 file."),
    ({"kind": "pem", "certificate": (io.BytesIO(b"-----BEGIN CERTIFICATE-----"), "c.pem")},
     "Choose both PEM files: the certificate and its private key."),
])
def test_a_missing_file_is_named_in_the_form_it_was_sent_from(dash: Dash, data: dict[str, Any],
                                                              message: str) -> None:
    response = _upload(dash, data)
    assert response.status_code == 422
    chosen = _form(text(response), f"apple-{data['kind']}")
    assert f'<div class="flash bad" role="alert" id="apple-error">{message}</div>' in chosen
    other = _form(text(response), "apple-pem" if data["kind"] == "p12" else "apple-p12")
    assert "apple-error" not in other


def test_a_binary_cer_gets_the_command_that_converts_it(dash: Dash, pki: test_pki.Pki) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding

    der = x509.load_pem_x509_certificate(pki.cert_pem).public_bytes(Encoding.DER)
    response = _upload(dash, {"kind": "pem", "certificate": (io.BytesIO(der), "pass.cer"),
                              "key": (io.BytesIO(pki.key_pem), "pass.key")})
    assert response.status_code == 422
    assert ("A .cer downloaded from Apple is binary (DER): convert it with openssl x509 "
            "-inform der -in pass.cer -out pass.pem") in _form(text(response), "apple-pem")


# ---- Live without a working credential: one next step -----------------------------------

@pytest.mark.parametrize("path", ["passes", "passes/new", "templates", "webhooks", "keys"])
def test_every_live_page_gives_the_same_next_step(dash: Dash, template_id: str,
                                                  path: str) -> None:
    page = text(dash.get(f"/dashboard/live/{path}"))
    assert page.count('<section class="setup-next" id="live-setup"') == 1
    assert '<p class="setup-title" id="live-setup-title">Live is not set up yet</p>' in page
    assert NEXT_STEP in page
    assert '<a href="/dashboard/test/passes">everything works in Test</a>' in page
    assert 'live-setup' not in text(dash.get(f"/dashboard/test/{path}"))


def test_live_pages_offer_nothing_that_would_fail(dash: Dash, template_id: str) -> None:
    passes = text(dash.get("/dashboard/live/passes"))
    assert "No passes in live yet." in passes
    assert "Issue the first one" not in passes and ">Issue a pass</a>" not in passes
    new = text(dash.get("/dashboard/live/passes/new"))
    assert "A live pass cannot be issued before live signing is set up: see the next step " \
        "above." in new
    assert 'id="f-template_id"' not in new and "Issue pass</button>" not in new
    test = text(dash.get("/dashboard/test/passes"))
    assert ">Issue a pass</a>" in test and "Issue the first one" in test


def test_the_certificates_page_is_the_step_itself(dash: Dash) -> None:
    page = text(dash.get("/dashboard/live/certificates"))
    assert "live-setup" not in page
    assert "add one of them, or both, before issuing live passes" in page


def test_one_working_credential_ends_the_notice(dash: Dash, template_id: str,
                                                account: dict[str, Any]) -> None:
    assert NEXT_STEP in text(dash.get("/dashboard/live/passes"))
    _issuer(dash, account)
    page = text(dash.get("/dashboard/live/passes"))
    assert "live-setup" not in page and ">Issue a pass</a>" in page
    assert 'id="f-template_id"' in text(dash.get("/dashboard/live/passes/new"))


def test_an_expired_certificate_is_not_a_working_one(app: Flask, dash: Dash,
                                                     org: dict[str, Any],
                                                     pki: test_pki.Pki) -> None:
    from webapp import clock

    _p12(dash, pki)
    assert "live-setup" not in text(dash.get("/dashboard/live/passes"))
    expires = pki.chain.identity.certificate.not_valid_after_utc
    clock.set_now(lambda: expires + timedelta(days=1))
    try:
        dash = sign_in(dash.client, org["email"], org["password"])
        assert NEXT_STEP in text(dash.get("/dashboard/live/passes"))
    finally:
        clock.set_now(None)


def test_a_wallet_without_its_credential_points_to_certificates(dash: Dash, template_id: str,
                                                                account: dict[str, Any]
                                                                ) -> None:
    _issuer(dash, account)  # Google only: an Apple pass cannot be signed
    response = dash.post("/dashboard/live/passes", {"template_id": template_id,
                                                    "fv-member": "Ada", "platform-apple": "on"})
    assert response.status_code == 422
    assert re.search(r'<div class="flash bad" role="alert">No live Apple certificate is set up'
                     r'[^<]*<a href="/dashboard/live/certificates">Open Certificates</a></div>',
                     text(response))


def test_a_pass_whose_certificate_was_deleted_points_to_certificates(
        dash: Dash, api: Api, live_api: Api, pki: test_pki.Pki, template_id: str) -> None:
    page = text(_p12(dash, pki))
    cert_id = re.search(r"/certificates/apple/(cert_[0-9a-z]+)/delete", page).group(1)
    response = live_api.post("/v1/passes", {"templateId": template_id,
                                            "fieldValues": {"member": "Ada"},
                                            "platforms": {"apple": True, "google": False}})
    assert response.status_code == 201, response.get_json()
    dash.post(f"/dashboard/live/certificates/apple/{cert_id}/delete")
    page = text(dash.get(f"/dashboard/live/passes/{response.get_json()['id']}"))
    assert ('Its certificate or issuer was deleted: add it again. <a href="/dashboard/live/'
            'certificates">Open Certificates</a>') in page
    # a test pass is signed with the demo identities: Certificates cannot help it
    issued = api.post("/v1/passes", {"templateId": template_id,
                                     "fieldValues": {"member": "Ada"}}).get_json()
    page = text(dash.get(f"/dashboard/test/passes/{issued['id']}"))
    main = page.split('<main id="main"', 1)[1]
    assert "Open Certificates" not in main and "was deleted" not in main
    assert "Demo certificate" in main  # and the demo note names the one step to real ones
