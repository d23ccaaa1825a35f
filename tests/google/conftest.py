"""Fixtures of the Google Wallet tests: a fake Google on a loopback port (session-wide),
the app pointed at it with the demo service account it knows, and our app on a real port
so the fake can deliver signed callbacks to it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tests.conftest import BASE_URL, Api, app_with
from tests.support.fake_google import FakeGoogle
from webapp.wallets.google import callbacks, client, service_account

ISSUER = "3388000000000000001"


@pytest.fixture(scope="session")
def fake_google_server() -> Iterator[FakeGoogle]:
    fake = FakeGoogle().start()
    yield fake
    fake.stop()


@pytest.fixture(scope="session")
def demo_account() -> dict[str, Any]:
    """The installation's demo Google service account (configured, as an operator would)."""
    return service_account.make_demo("https://oauth2.googleapis.com/token")


@pytest.fixture(scope="session")
def demo_account_file(demo_account: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
                      ) -> str:
    path = tmp_path_factory.mktemp("google") / "demo-service-account.json"
    path.write_text(json.dumps(demo_account))
    return str(path)


def google_overrides(fake: FakeGoogle, account_file: str) -> dict[str, Any]:
    return {
        "GOOGLE_WALLET_API_URL": f"{fake.base}/walletobjects/v1",
        "GOOGLE_TOKEN_URI": f"{fake.base}/token",
        "GOOGLE_WALLET_SAVE_URL": f"{fake.base}/gp/v/save/",
        "GOOGLE_CALLBACK_KEYS_URL": f"{fake.base}/gp/m/issuer/keys",
        "DEMO_GOOGLE_SERVICE_ACCOUNT": account_file,
        "DEMO_GOOGLE_ISSUER_ID": ISSUER,
        "GOOGLE_WALLET_RETRIES": 2,
        "GOOGLE_WALLET_BACKOFF_MS": 1,
        "JOBS_SYNCHRONOUS": True,
    }


@pytest.fixture
def fake_google(fake_google_server: FakeGoogle, demo_account: dict[str, Any]
                ) -> Iterator[FakeGoogle]:
    """The fake, emptied, knowing the demo account as a writer of the demo issuer."""
    fake_google_server.reset()
    fake_google_server.register(demo_account, {ISSUER})
    client._clients.clear()  # no token cached from another test
    callbacks.forget_root_keys()
    yield fake_google_server
    fake_google_server.reset()


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path, fake_google: FakeGoogle,
        demo_account_file: str) -> Iterator[Flask]:
    yield from app_with(database, database_url, tmp_path,
                        google_overrides(fake_google, demo_account_file))


@pytest.fixture
def served(app: Flask, fake_google: FakeGoogle) -> Iterator[str]:
    """Our app on a real loopback port, reachable by the fake as BASE_URL (a TLS proxy's
    job in production)."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    local = f"http://127.0.0.1:{server.server_port}"
    fake_google.callback_base = (BASE_URL, local)
    yield local
    server.shutdown()


def issue(api: Api, template: dict[str, Any], **body: Any) -> dict[str, Any]:
    """Issue a pass; the pass as it is once its Google job ran (tests run jobs in the
    request's thread, after the commit: the issue answer itself predates the job)."""
    response = api.post("/v1/passes", {"templateId": template["id"], **body})
    assert response.status_code == 201, response.get_data(as_text=True)
    return api.get(f"/v1/passes/{response.get_json()['id']}").get_json()
