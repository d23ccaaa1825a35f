"""Apple Wallet test fixtures: a configured demo identity whose root the tests know, an
organization certificate from the shared test PKI, passes issued through the API, and a
fake device that speaks the Wallet web service."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.factories import template_body
from tests.conftest import Api, app_with
from tests.support import pki
from webapp.wallets.apple import certificates

DEMO_PASS_TYPE = "pass.dev.passservice.test"
DEMO_TEAM = "DEMOTEST01"


@cache
def demo_chain() -> certificates.DemoChain:
    """The installation's demo chain, as an operator would configure it (DEMO_APPLE_P12)."""
    return certificates.make_demo_chain(DEMO_PASS_TYPE, DEMO_TEAM, "Demo Org")


def demo_root_pem() -> bytes:
    from cryptography.hazmat.primitives import serialization

    return demo_chain().root.public_bytes(serialization.Encoding.PEM)


def apple_overrides() -> dict[str, Any]:
    p12 = certificates.to_p12(demo_chain().identity, None)
    # No test reaches Apple: pushes go to a closed local port unless a test starts the fake.
    return {"DEMO_APPLE_P12": base64.b64encode(p12).decode(), "JOBS_SYNCHRONOUS": True,
            "APNS_URL": "https://127.0.0.1:9"}


@pytest.fixture
def extra_overrides() -> dict[str, Any]:
    """More settings for the app (the APNs tests point it at the fake)."""
    return {}


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path,
        extra_overrides: dict[str, Any]) -> Iterator[Flask]:
    yield from app_with(database, database_url, tmp_path, {**apple_overrides(), **extra_overrides})


def make_template(api: Api, kind: str = "generic", **changes: Any) -> dict[str, Any]:
    response = api.post("/v1/templates", template_body(kind, **changes))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def issue(api: Api, template: dict[str, Any] | None = None, **body: Any) -> dict[str, Any]:
    template = template or make_template(api)
    values = {"templateId": template["id"], "fieldValues": {"member": "Ada Lovelace"}}
    values.update(body)
    response = api.post("/v1/passes", values)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.fixture
def item(api: Api) -> dict[str, Any]:
    """A pass issued on a fresh generic template (demo identity)."""
    return issue(api)


@pytest.fixture
def token(app: Flask, item: dict[str, Any]) -> str:
    """The `item` pass's authenticationToken."""
    return auth_token(app, item["id"])


@pytest.fixture
def live_certificate(app: Flask, org: dict[str, Any]) -> str:
    """The organization's live Pass Type ID certificate (shared test PKI), its ID."""
    from webapp.services.credentials import identities

    made = pki.make()
    with app.app_context():
        return identities.add_apple(org["id"], p12=made.p12, password="secret").id


def auth_token(app: Flask, pass_id: str) -> str:
    """The pass's authenticationToken, as the device has it from pass.json."""
    from webapp.extensions import db
    from webapp.models import Pass
    from webapp.services.apple import passes

    with app.app_context():
        return passes.authentication_token(db.session.get(Pass, pass_id))


class Device:
    """A device with a Wallet: registers, asks what changed, fetches passes."""

    def __init__(self, client: FlaskClient, device_id: str, push_token: str):
        self.client, self.id, self.push_token = client, device_id, push_token
        self.tag: str | None = None
        self.last_modified: dict[str, str] = {}

    def path(self, pass_type: str, serial: str) -> str:
        return f"/wallet/apple/v1/devices/{self.id}/registrations/{pass_type}/{serial}"

    def register(self, pass_type: str, serial: str, token: str) -> Any:
        return self.client.post(self.path(pass_type, serial), json={"pushToken": self.push_token},
                                headers={"Authorization": f"ApplePass {token}"})

    def unregister(self, pass_type: str, serial: str, token: str) -> Any:
        return self.client.delete(self.path(pass_type, serial),
                                  headers={"Authorization": f"ApplePass {token}"})

    def serials(self, pass_type: str, since: str | None = None) -> Any:
        query = {"passesUpdatedSince": since} if since is not None else {}
        response = self.client.get(f"/wallet/apple/v1/devices/{self.id}/registrations/"
                                   f"{pass_type}", query_string=query)
        if response.status_code == 200:
            self.tag = response.get_json()["lastUpdated"]
        return response

    def fetch(self, pass_type: str, serial: str, token: str, *, conditional: bool = True
              ) -> Any:
        headers = {"Authorization": f"ApplePass {token}"}
        if conditional and serial in self.last_modified:
            headers["If-Modified-Since"] = self.last_modified[serial]
        response = self.client.get(f"/wallet/apple/v1/passes/{pass_type}/{serial}",
                                   headers=headers)
        if response.status_code == 200:
            self.last_modified[serial] = response.headers["Last-Modified"]
        return response


@pytest.fixture(scope="session")
def fake_apns_server() -> Iterator[Any]:
    """The fake APNs (session-wide), trusting the demo root and the shared test PKI root."""
    from tests.support.fake_apns import FakeApns

    fake = FakeApns([demo_root_pem(), pki.make().root_pem]).start()
    yield fake
    fake.stop()


@pytest.fixture
def fake_apns(fake_apns_server: Any) -> Iterator[Any]:
    """The fake APNs, emptied; the app pushes to it."""
    fake_apns_server.reset()
    yield fake_apns_server
    fake_apns_server.reset()


def apns_overrides(fake: Any) -> dict[str, Any]:
    return {"APNS_URL": fake.base, "APNS_CA_FILE": fake.ca_file}
