"""Signing identities: Apple certificates, Google issuers, demo identities, live passes."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select

from tests.api.factories import template_body
from tests.conftest import Api, assert_error
from tests.support import pki as test_pki
from webapp import clock
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.extensions import db
from webapp.models import AppleCertificate, DemoIdentity, GoogleIssuer
from webapp.services.credentials import identities
from webapp.wallets.google import service_account

ISSUER = "3388000000012345678"


@pytest.fixture(scope="session")
def pki() -> test_pki.Pki:
    return test_pki.make()


@pytest.fixture(scope="session")
def sa_json() -> str:
    return json.dumps(service_account.make_demo("https://oauth2.googleapis.com/token"))


def test_add_apple_from_p12_reads_the_certificate(app, org: dict, pki) -> None:
    with app.app_context():
        cert = identities.add_apple(org["id"], p12=pki.p12, password="secret")
        assert cert.id.startswith("cert_")
        assert cert.pass_type_identifier == test_pki.PASS_TYPE
        assert cert.team_identifier == test_pki.TEAM
        assert cert.expires_at > clock.now() + timedelta(days=300)
        stored = db.session.scalar(select(AppleCertificate).where(AppleCertificate.id == cert.id))
        key_pem = pki.key_pem
        assert key_pem not in stored.private_key_encrypted
        assert b"PRIVATE KEY" not in stored.private_key_encrypted
        identity = identities.apple_identity(org["id"], cert.id)
        assert identity.private_key_pem == key_pem
        assert identity.pass_type_identifier == test_pki.PASS_TYPE


def test_add_apple_from_pem_with_separate_wwdr(app, org: dict, pki) -> None:
    with app.app_context():
        cert = identities.add_apple(org["id"], certificate_pem=pki.cert_pem,
                                    key_pem=pki.key_pem, wwdr_pem=pki.wwdr_pem)
        assert cert.pass_type_identifier == test_pki.PASS_TYPE


@pytest.mark.parametrize(("kwargs", "code"), [
    ({"p12": "p12", "password": "wrong"}, "wrong_password"),
    ({"p12": "p12_without_wwdr", "password": "secret"}, "wwdr_missing"),
    ({"p12": "plain_p12", "password": "secret"}, "not_a_pass_certificate"),
    ({"p12": b"not a p12", "password": "secret"}, "unreadable_certificate"),
    ({"certificate_pem": "cert_pem", "key_pem": b"nope"}, "unreadable_key"),
    ({}, "parameter_missing"),
])
def test_add_apple_rejects(app, org: dict, pki, kwargs: dict, code: str) -> None:
    resolved = {k: getattr(pki, v) if isinstance(v, str) and k != "password" else v
                for k, v in kwargs.items()}
    with app.app_context(), pytest.raises(InvalidRequest) as caught:
        identities.add_apple(org["id"], **resolved)
    assert caught.value.code == code and caught.value.message


def test_key_that_does_not_match_is_rejected(app, org: dict, pki) -> None:
    other_key = test_pki.make().plain_p12  # any other key: take the TLS one's
    from cryptography.hazmat.primitives.serialization import pkcs12

    key, _cert, _ = pkcs12.load_key_and_certificates(other_key, b"secret")
    from cryptography.hazmat.primitives import serialization

    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    with app.app_context(), pytest.raises(InvalidRequest) as caught:
        identities.add_apple(org["id"], certificate_pem=pki.cert_pem, key_pem=pem,
                             wwdr_pem=pki.wwdr_pem)
    assert caught.value.code == "key_mismatch"


def test_expired_certificate_is_rejected(app, org: dict, pki) -> None:
    later = clock.now() + timedelta(days=3650 + 2)
    clock.set_now(lambda: later)
    with app.app_context(), pytest.raises(InvalidRequest) as caught:
        identities.add_apple(org["id"], p12=pki.p12, password="secret")
    assert caught.value.code == "certificate_expired"
    assert "expired" in caught.value.message


def test_add_google(app, org: dict, sa_json: str) -> None:
    with app.app_context():
        issuer = identities.add_google(org["id"], ISSUER, sa_json)
        assert issuer.issuer_id == ISSUER
        assert issuer.client_email.endswith(".iam.gserviceaccount.com")
        stored = db.session.scalar(select(GoogleIssuer).where(GoogleIssuer.id == issuer.id))
        assert b"PRIVATE KEY" not in stored.service_account_encrypted
        assert identities.google_identity(org["id"], ISSUER).service_account == \
            json.loads(sa_json)
        with pytest.raises(Conflict):
            identities.add_google(org["id"], ISSUER, sa_json)


@pytest.mark.parametrize(("issuer", "data", "code"), [
    ("abc", None, "invalid_issuer_id"),
    (ISSUER, "not json", "invalid_service_account"),
    (ISSUER, json.dumps({"type": "authorized_user"}), "invalid_service_account"),
    (ISSUER, json.dumps({"type": "service_account", "client_email": "x"}),
     "invalid_service_account"),
])
def test_add_google_rejects(app, org: dict, sa_json: str, issuer: str, data: str | None,
                            code: str) -> None:
    with app.app_context(), pytest.raises(InvalidRequest) as caught:
        identities.add_google(org["id"], issuer, data or sa_json)
    assert caught.value.code == code


def test_broken_private_key_in_service_account_is_rejected(app, org: dict, sa_json) -> None:
    info = json.loads(sa_json)
    info["private_key"] = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
    with app.app_context(), pytest.raises(InvalidRequest):
        identities.add_google(org["id"], ISSUER, json.dumps(info))


def test_unknown_organization(app, pki, sa_json) -> None:
    with app.app_context():
        with pytest.raises(NotFound):
            identities.add_apple("org_nope", p12=pki.p12, password="secret")
        with pytest.raises(NotFound):
            identities.add_google("org_nope", ISSUER, sa_json)


def test_demo_identities_are_generated_once_and_kept(app) -> None:
    # The PostgreSQL lane empties one database between tests, behind the same URL: an earlier
    # test's demo identities may still be cached in this process for rows that are gone.
    identities._cache.clear()
    with app.app_context():
        first = identities.demo_apple()
        assert first.id == "demo" and first.pass_type_identifier.startswith("pass.")
        assert first.root_pem and "BEGIN CERTIFICATE" in first.wwdr_pem
        google = identities.demo_google()
        assert google.issuer_id.isdigit() and google.service_account["type"] == \
            "service_account"
        rows = db.session.scalars(select(DemoIdentity)).all()
        assert sorted(r.kind for r in rows) == ["apple", "google"]
        assert all(b"PRIVATE KEY" not in r.secret_encrypted for r in rows)
        identities._cache.clear()  # a new process reads the same identity back
        assert identities.demo_apple().certificate_pem == first.certificate_pem


def test_demo_identity_from_configuration(app, pki, tmp_path, sa_json) -> None:
    path = tmp_path / "demo.p12"
    path.write_bytes(pki.p12)
    sa = tmp_path / "sa.json"
    sa.write_text(sa_json)
    app.config.update(DEMO_APPLE_P12=str(path), DEMO_APPLE_P12_PASSWORD="secret",
                      DEMO_GOOGLE_SERVICE_ACCOUNT=str(sa), DEMO_GOOGLE_ISSUER_ID=ISSUER)
    with app.app_context():
        assert identities.demo_apple().pass_type_identifier == test_pki.PASS_TYPE
        assert identities.demo_google().issuer_id == ISSUER
        assert db.session.scalars(select(DemoIdentity)).all() == []


# ---- live passes ---------------------------------------------------------------------------

@pytest.fixture
def live_template(live_api: Api) -> dict:
    return live_api.post("/v1/templates", template_body()).get_json()


def _issue(live_api: Api, template: dict, **extra):
    return live_api.post("/v1/passes", {"templateId": template["id"],
                                        "fieldValues": {"member": "A"}, **extra})


def test_live_pass_without_credentials_is_422(live_api: Api, live_template: dict) -> None:
    response = _issue(live_api, live_template)
    assert_error(response, 422, "invalid_request_error", "live_credentials_missing")
    assert live_api.get("/v1/passes").get_json()["data"] == []


def test_live_pass_uses_the_organizations_credentials(app, live_api: Api, api: Api,
                                                      live_template: dict, org: dict, pki,
                                                      sa_json) -> None:
    with app.app_context():
        cert = identities.add_apple(org["id"], p12=pki.p12, password="secret")
        identities.add_google(org["id"], ISSUER, sa_json)
    response = _issue(live_api, live_template)
    assert response.status_code == 201, response.get_data(as_text=True)
    p = response.get_json()
    assert p["environment"] == "live"
    assert p["signing"] == {"appleCertificateId": cert.id,
                            "applePassTypeIdentifier": test_pki.PASS_TYPE,
                            "googleIssuerId": ISSUER}
    assert p["artifacts"]["apple"] == {"ready": True, "reason": None}
    # The test key sees none of it.
    assert api.get("/v1/passes").get_json()["data"] == []


def test_live_pass_for_one_wallet_needs_only_its_credential(app, live_api: Api, org: dict,
                                                            live_template: dict, pki) -> None:
    with app.app_context():
        identities.add_apple(org["id"], p12=pki.p12, password="secret")
    assert_error(_issue(live_api, live_template), 422, "invalid_request_error",
                 "live_credentials_missing", "googleIssuerId")
    response = _issue(live_api, live_template, platforms={"google": False})
    assert response.status_code == 201


def test_named_credentials_must_belong_to_the_organization(app, live_api: Api, org: dict,
                                                           other_org: dict,
                                                           live_template: dict, pki) -> None:
    with app.app_context():
        theirs = identities.add_apple(other_org["id"], p12=pki.p12, password="secret")
    response = _issue(live_api, live_template, certificateId=theirs.id,
                      platforms={"google": False})
    assert_error(response, 400, "invalid_request_error", "parameter_invalid", "certificateId")


def test_expired_live_certificate_is_422_and_shows_in_artifacts(app, live_api: Api, org: dict,
                                                                 live_template: dict,
                                                                 pki) -> None:
    with app.app_context():
        identities.add_apple(org["id"], p12=pki.p12, password="secret")
    p = _issue(live_api, live_template, platforms={"google": False}).get_json()
    later = clock.now() + timedelta(days=3650 + 2)
    clock.set_now(lambda: later)
    got = live_api.get(f"/v1/passes/{p['id']}").get_json()
    assert got["artifacts"]["apple"] == {"ready": False, "reason": "certificate_expired"}
    response = _issue(live_api, live_template, platforms={"google": False})
    assert_error(response, 422, "invalid_request_error", "live_credentials_missing")


# ---- template settings (decisions section 5) --------------------------------------------------

def test_template_settings_patch_sets_and_clears_defaults_without_a_revision(
        app, api: Api, org: dict, pki, sa_json: str) -> None:
    with app.app_context():
        cert = identities.add_apple(org["id"], p12=pki.p12, password="secret")
        identities.add_google(org["id"], issuer_id=ISSUER, service_account_json=sa_json)
    template = api.post("/v1/templates", template_body()).get_json()
    r = api.patch(f"/v1/templates/{template['id']}", {
        "expectedRevision": 1,
        "settings": {"appleCertificateId": cert.id, "googleIssuerId": ISSUER}})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["settings"] == {"appleCertificateId": cert.id, "googleIssuerId": ISSUER}
    assert body["revision"] == 1
    assert body["updatedAt"] >= template["updatedAt"]
    assert api.get(f"/v1/templates/{template['id']}").get_json()["settings"] == body["settings"]
    assert api.get(f"/v1/templates/{template['id']}").get_json()["revision"] == 1

    # Partial: only the named member changes; null clears.
    r = api.patch(f"/v1/templates/{template['id']}", {
        "expectedRevision": 1, "settings": {"googleIssuerId": None}})
    assert r.get_json()["settings"] == {"appleCertificateId": cert.id, "googleIssuerId": None}


@pytest.mark.parametrize(("settings", "param"), [
    ({"appleCertificateId": "cert_00000000000000000000000000"}, "settings.appleCertificateId"),
    ({"googleIssuerId": "1234"}, "settings.googleIssuerId"),
])
def test_template_settings_reject_unknown_credentials(api: Api, settings: dict, param: str) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    r = api.patch(f"/v1/templates/{template['id']}", {"expectedRevision": 1,
                                                       "settings": settings})
    assert_error(r, 400, "invalid_request_error", "parameter_invalid", param)
    assert api.get(f"/v1/templates/{template['id']}").get_json()["settings"] == {
        "appleCertificateId": None, "googleIssuerId": None}


def test_template_settings_reject_another_organizations_certificate(
        app, api: Api, other_org: dict, pki) -> None:
    with app.app_context():
        foreign = identities.add_apple(other_org["id"], p12=pki.p12, password="secret")
    template = api.post("/v1/templates", template_body()).get_json()
    r = api.patch(f"/v1/templates/{template['id']}", {
        "expectedRevision": 1, "settings": {"appleCertificateId": foreign.id}})
    assert_error(r, 400, "invalid_request_error", "parameter_invalid",
                 "settings.appleCertificateId")


@pytest.mark.parametrize("settings", [
    {"appleCertificateId": 5}, {"unknown": "x"}, "cert", {"googleIssuerId": ""},
    {"googleIssuerId": True},
])
def test_template_settings_bad_shapes_are_400(api: Api, settings) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    r = api.patch(f"/v1/templates/{template['id']}", {"expectedRevision": 1,
                                                       "settings": settings})
    assert_error(r, 400, "invalid_request_error")


def test_live_pass_uses_the_template_settings_among_several_credentials(
        app, api: Api, live_api: Api, org: dict, pki) -> None:
    with app.app_context():
        first = identities.add_apple(org["id"], p12=pki.p12, password="secret")
        second = identities.add_apple(org["id"], p12=pki.p12, password="secret")
    body = template_body()
    body["definition"]["platforms"] = {"apple": True, "google": False}
    template = live_api.post("/v1/templates", body).get_json()
    fields_ = {f["key"]: "x" for f in template_body()["definition"]["config"]["fields"]
               .get("primary", []) if f.get("binding") == "perPass"}
    issue = {"templateId": template["id"], "fieldValues": fields_}
    # Two usable certificates and no setting: the service cannot choose.
    r = live_api.post("/v1/passes", issue)
    assert_error(r, 422, "invalid_request_error", "live_credentials_missing")
    live_api.patch(f"/v1/templates/{template['id']}", {
        "expectedRevision": 1, "settings": {"appleCertificateId": second.id}})
    r = live_api.post("/v1/passes", issue)
    assert r.status_code == 201, r.get_json()
    assert first.id != second.id
