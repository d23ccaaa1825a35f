"""Authentication (spec: Authentication) and GET /v1/me."""

from __future__ import annotations

import pytest

from tests.conftest import Api, assert_error


def test_me_reports_organization_and_environment(api: Api, live_api: Api, org: dict) -> None:
    response = api.get("/v1/me")
    assert response.status_code == 200
    assert response.get_json() == {"organizationId": org["id"], "environment": "test",
                                   "permissions": None}
    assert response.headers["Request-Id"].startswith("req_")
    assert live_api.get("/v1/me").get_json() == {"organizationId": org["id"],
                                                 "environment": "live", "permissions": None}


def test_key_format(org: dict) -> None:
    for env in ("test", "live"):
        key = org["keys"][env]
        assert key.startswith(f"svc_{env}_")
        suffix = key.removeprefix(f"svc_{env}_")
        assert len(suffix) == 32 and suffix.isalnum() and suffix.isascii()


@pytest.mark.parametrize("header", [
    None,
    "",
    "Bearer",
    "Bearer ",
    "Basic c3ZjX3Rlc3RfYWJj",
    "Bearer svc_test_short",
    "Bearer svc_prod_" + "a" * 32,
    "Bearer svc_test_" + "a" * 31 + "!",
    "Bearer svc_test_" + "a" * 33,
    "Bearer svc_test_" + "a" * 32,  # well formed, unknown
    "bearer svc_live_" + "B" * 32,
    "Bearer " + "x" * 5000,
])
def test_uniform_401(client, header: str | None) -> None:
    headers = {"Authorization": header} if header is not None else {}
    response = client.get("/v1/me", headers=headers)
    error = assert_error(response, 401, None, "invalid_api_key")
    assert error == {"code": "invalid_api_key", "message": "Invalid API key provided."}


def test_revoked_key_gets_the_same_401(app, client, org: dict) -> None:
    from webapp.services.accounts import api_keys

    key = org["keys"]["test"]
    assert client.get("/v1/me", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    with app.app_context():
        key_id = next(k.id for k in api_keys.list_for(org["id"]) if k.environment == "test")
        api_keys.revoke(key_id)
    response = client.get("/v1/me", headers={"Authorization": f"Bearer {key}"})
    assert assert_error(response, 401, None, "invalid_api_key") == {
        "code": "invalid_api_key", "message": "Invalid API key provided."}


def test_401_comes_before_everything_else(client) -> None:
    # No key and no Idempotency-Key and a bad body: authentication answers first.
    response = client.post("/v1/templates", data="not json")
    assert_error(response, 401, None, "invalid_api_key")
    response = client.get("/v1/templates?limit=0")
    assert_error(response, 401, None, "invalid_api_key")


def test_keys_are_stored_hashed(app, org: dict) -> None:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import ApiKey

    with app.app_context():
        rows = db.session.scalars(select(ApiKey).where(ApiKey.organization_id == org["id"])).all()
        stored = {r.secret_hash for r in rows} | {r.prefix for r in rows}
    for secret in org["keys"].values():
        assert secret not in stored
        assert not any(secret in value for value in stored if len(value) > 20)


def test_last_used_is_recorded(app, api: Api, org: dict) -> None:
    from webapp.services.accounts import api_keys

    api.get("/v1/me")
    with app.app_context():
        test_key = next(k for k in api_keys.list_for(org["id"]) if k.environment == "test")
        live_key = next(k for k in api_keys.list_for(org["id"]) if k.environment == "live")
    assert test_key.last_used_at is not None
    assert live_key.last_used_at is None


def test_openapi_is_public(client) -> None:
    response = client.get("/v1/openapi.json")
    assert response.status_code == 200
    assert response.get_json()["openapi"] == "3.1.0"
