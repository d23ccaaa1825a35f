"""POST /wallet/google/callbacks: genuine save/del callbacks change the installation state
and emit events once; forged, expired, replayed or foreign-issuer ones change nothing."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle

URL = "/wallet/google/callbacks"


@pytest.fixture
def pass_(api: Api, fake_google: FakeGoogle) -> dict[str, Any]:
    t = api.post("/v1/templates", template_body()).get_json()
    return issue(api, t, fieldValues={"member": "Ada"})


def ids(p: dict[str, Any]) -> tuple[str, str]:
    return f"{ISSUER}.{p['templateId']}_r1", f"{ISSUER}.{p['id']}"


def post(api: Api, envelope: Any) -> Any:
    body = envelope if isinstance(envelope, bytes) else json.dumps(envelope).encode()
    return api.client.post(URL, data=body, content_type="application/json")


def state(app: Flask, pass_id: str) -> tuple[str | None, int]:
    from webapp.extensions import db
    from webapp.models import Event
    from webapp.services.google import sync

    with app.app_context():
        row = sync.row_of(pass_id)
        return row.wallet_state, db.session.query(Event).filter(
            Event.type.like("pass.%_wallet")).count()


def test_save_then_replay_then_del(app: Flask, api: Api, pass_: dict,
                                   fake_google: FakeGoogle) -> None:
    cls, obj = ids(pass_)
    signer = fake_google.signer
    save = signer.envelope(ISSUER, signer.message(cls, obj, "save", nonce="nonce-1"))
    response = post(api, save)
    assert response.status_code == 200 and response.get_json() == {"status": "accepted"}
    assert state(app, pass_["id"]) == ("saved", 1)
    replay = post(api, save)
    assert replay.status_code == 200 and replay.get_json() == {"status": "duplicate"}
    assert state(app, pass_["id"]) == ("saved", 1)
    delete = post(api, signer.envelope(ISSUER, signer.message(cls, obj, "del")))
    assert delete.status_code == 200
    assert state(app, pass_["id"]) == ("removed", 2)
    types = [e["type"] for e in api.get("/v1/events").get_json()["data"]
             if e["type"].endswith("_wallet")]
    assert types == ["pass.removed_from_wallet", "pass.added_to_wallet"]


def _forged(fake: FakeGoogle, cls: str, obj: str) -> dict[str, Any]:
    envelope = fake.signer.envelope(ISSUER, fake.signer.message(cls, obj, "save"))
    envelope["signedMessage"] = envelope["signedMessage"].replace('"save"', '"del"')
    return envelope


@pytest.mark.parametrize(("make", "status", "code"), [
    (lambda f, c, o: _forged(f, c, o), 401, "bad_signature"),
    (lambda f, c, o: f.signer.envelope(ISSUER, f.signer.message(c, o, "save"),
                                       root=ec.generate_private_key(ec.SECP256R1())),
     401, "bad_signature"),
    (lambda f, c, o: f.signer.envelope(ISSUER, f.signer.message(
        c, o, "save", expires_ms=int(time.time() * 1000) - 1)), 401, "expired"),
    (lambda f, c, o: f.signer.envelope(ISSUER, f.signer.message(c, o, "save"),
                                       key_expiry_ms=int(time.time() * 1000) - 1),
     401, "expired"),
    (lambda f, c, o: f.signer.envelope("777", f.signer.message(
        c.replace(ISSUER, "777"), o.replace(ISSUER, "777"), "save")), 401, "unknown_issuer"),
    (lambda f, c, o: f.signer.envelope(ISSUER, f.signer.message(
        c, o.replace(ISSUER, "777"), "save")), 401, "foreign_object"),
    (lambda f, c, o: f.signer.envelope(ISSUER, f.signer.message(c, o, "save"),
                                       sender="GoogleWalletPasses"), 401, "bad_signature"),
    (lambda f, c, o: b"{not json", 400, "malformed"),
    (lambda f, c, o: {"protocolVersion": "ECv2SigningOnly"}, 400, "malformed"),
])
def test_rejected_callbacks_change_nothing(app: Flask, api: Api, pass_: dict,
                                           fake_google: FakeGoogle, make: Any, status: int,
                                           code: str) -> None:
    cls, obj = ids(pass_)
    response = post(api, make(fake_google, cls, obj))
    assert response.status_code == status
    assert response.get_json() == {"status": code}
    assert state(app, pass_["id"]) == (None, 0)


def test_message_signed_for_another_issuer_is_rejected(app: Flask, api: Api, pass_: dict,
                                                       fake_google: FakeGoogle) -> None:
    """Signed by Google for issuer 777, replayed to us with our IDs inside: the recipient
    is part of the signature, so it fails."""
    cls, obj = ids(pass_)
    envelope = fake_google.signer.envelope("777", fake_google.signer.message(cls, obj, "save"))
    assert post(api, envelope).status_code == 401
    assert state(app, pass_["id"]) == (None, 0)


def test_unknown_object_is_acknowledged_and_ignored(app: Flask, api: Api, pass_: dict,
                                                    fake_google: FakeGoogle) -> None:
    cls, _obj = ids(pass_)
    envelope = fake_google.signer.envelope(ISSUER, fake_google.signer.message(
        cls, f"{ISSUER}.pass_unknown", "save"))
    response = post(api, envelope)
    assert response.status_code == 200 and response.get_json() == {"status": "unknown_object"}
    assert state(app, pass_["id"]) == (None, 0)


def test_callback_of_another_organizations_issuer_touches_only_its_pass(
        app: Flask, api: Api, live_api: Api, pass_: dict, fake_google: FakeGoogle,
        org: dict) -> None:
    """A live issuer of the organization: its callbacks reach its own live pass only."""
    from webapp.services.credentials import identities
    from webapp.wallets.google import service_account

    live_issuer = "3388000000000000777"
    account = service_account.make_demo("https://oauth2.googleapis.com/token", "acme")
    with app.app_context():
        identities.add_google(org["id"], live_issuer, json.dumps(account))
    fake_google.register(account, {live_issuer})
    t = live_api.post("/v1/templates", template_body()).get_json()
    live = issue(live_api, t, fieldValues={"member": "Live"}, platforms={"apple": False})
    assert live["artifacts"]["google"]["ready"] is True
    obj = f"{live_issuer}.{live['id']}"
    assert fake_google.resource("genericObject", obj) is not None
    envelope = fake_google.signer.envelope(live_issuer, fake_google.signer.message(
        f"{live_issuer}.{t['id']}_r1", obj, "save"))
    assert post(api, envelope).status_code == 200
    assert state(app, live["id"])[0] == "saved" and state(app, pass_["id"])[0] is None
    assert [e["type"] for e in live_api.get("/v1/events").get_json()["data"]
            if e["type"].endswith("_wallet")] == ["pass.added_to_wallet"]
    assert [e for e in api.get("/v1/events").get_json()["data"]
            if e["type"].endswith("_wallet")] == []


def test_keys_unreachable_is_503_so_google_retries(app: Flask, api: Api, pass_: dict,
                                                   fake_google: FakeGoogle) -> None:
    app.config["GOOGLE_CALLBACK_KEYS_URL"] = "http://127.0.0.1:9/keys"
    cls, obj = ids(pass_)
    envelope = fake_google.signer.envelope(ISSUER, fake_google.signer.message(cls, obj, "save"))
    assert post(api, envelope).status_code == 503
    assert state(app, pass_["id"]) == (None, 0)


def test_oversized_body_is_413(api: Api) -> None:
    response = api.client.post(URL, data=b"x" * (64 * 1024 + 1),
                               content_type="application/json")
    assert response.status_code == 413


def test_callbacks_need_no_key_and_are_not_under_the_public_page_limit(
        app: Flask, api: Api, pass_: dict, fake_google: FakeGoogle) -> None:
    app.config["RATE_LIMIT_PUBLIC"] = 2
    cls, obj = ids(pass_)
    for _ in range(5):
        envelope = fake_google.signer.envelope(ISSUER, fake_google.signer.message(
            cls, obj, "save"))
        assert post(api, envelope).status_code == 200
    app.config["RATE_LIMIT_GOOGLE_CALLBACKS"] = 1  # its own per-IP limit
    assert post(api, b"{}").status_code == 400
    envelope = fake_google.signer.envelope(ISSUER, fake_google.signer.message(cls, obj, "del"))
    assert post(api, envelope).status_code == 429
    assert api.client.post(URL, data=b"{}", environ_base={"REMOTE_ADDR": "10.0.0.9"}
                           ).status_code == 400  # another sender has its own bucket
