"""Rate limits (decisions.md sections 1 and 4): per organization and environment on /v1,
per client IP on public routes; 401 -> 429 -> Idempotency-Key; 429s are not stored.

Most tests run the limiter on a fake clock (patched into Flask-Limiter, `limits` and our
counters storage, the only places that read the time for limiting), so "within a second"
and "after the window" do not depend on how fast the machine is and nothing sleeps.
"""

from __future__ import annotations

import base64
import io
import time
import types
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from PIL import Image

from tests.api.factories import template_body
from tests.conftest import Api, assert_error, base_overrides
from webapp import create_app

TEST_LIMIT, LIVE_LIMIT, PUBLIC_LIMIT = 3, 5, 2
UNAUTHENTICATED_LIMIT = 10  # a minute, per client IP, for /v1 requests without a valid key


class FakeClock:
    """`time` as Flask-Limiter and `limits` see it."""

    def __init__(self, start: float):
        self.now = start

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    @staticmethod
    def mktime(value: Any) -> float:
        return time.mktime(value)

    @staticmethod
    def sleep(seconds: float) -> None:
        time.sleep(seconds)

    @staticmethod
    def monotonic() -> float:
        return time.monotonic()


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    import flask_limiter._extension
    import limits.strategies

    from webapp import ratelimit_storage

    clock = FakeClock(float(int(time.time())) + 0.1)  # early in a second
    module = types.SimpleNamespace(time=clock.time, mktime=clock.mktime, sleep=clock.sleep,
                                   monotonic=clock.monotonic)
    for target in (flask_limiter._extension, ratelimit_storage, limits.strategies):
        monkeypatch.setattr(target, "time", module)
    return clock


@pytest.fixture
def limited(database: dict[str, Any], database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """An app with low limits: test 3/s, live 5/s, public 2/min, without a key 10/min."""
    app = create_app(base_overrides(tmp_path, database_url) | {
        "RATE_LIMIT_TEST": TEST_LIMIT, "RATE_LIMIT_LIVE": LIVE_LIMIT,
        "RATE_LIMIT_PUBLIC": PUBLIC_LIMIT, "RATE_LIMIT_UNAUTHENTICATED": UNAUTHENTICATED_LIMIT})
    app.instance_path = str(tmp_path / "instance")
    yield app
    with app.app_context():
        from webapp.extensions import db

        db.engine.dispose()


def make_org(app: Flask, name: str = "Limited Co") -> dict[str, Any]:
    from webapp.services.accounts import organizations

    with app.app_context():
        created = organizations.create(name, f"rl-{uuid.uuid4().hex[:8]}@limits.test",
                                       "correct horse battery")
    return {"id": created.organization.id, "keys": created.keys}


@pytest.fixture
def limited_org(limited: Flask) -> dict[str, Any]:
    return make_org(limited)


@pytest.fixture
def in_test(limited: Flask, limited_org: dict[str, Any]) -> Api:
    return Api(limited.test_client(), limited_org["keys"]["test"])


@pytest.fixture
def in_live(limited: Flask, limited_org: dict[str, Any]) -> Api:
    return Api(limited.test_client(), limited_org["keys"]["live"])


def exhaust(api: Api, limit: int) -> None:
    for i in range(limit):
        response = api.get("/v1/me")
        assert response.status_code == 200, (i, response.get_data(as_text=True))


def assert_429(response: Any, limit: int) -> int:
    """The documented 429; returns Retry-After."""
    error = assert_error(response, 429, "rate_limit_error", "rate_limit_exceeded")
    assert set(error) == {"type", "code", "message"}
    assert response.headers["RateLimit-Limit"] == str(limit)
    assert response.headers["RateLimit-Remaining"] == "0"
    assert response.headers["RateLimit-Reset"].isdigit()
    retry_after = response.headers["Retry-After"]
    assert retry_after.isdigit(), retry_after
    return int(retry_after)


# ---- the /v1 bucket -------------------------------------------------------------------------

def test_fourth_request_within_a_second_is_429(fake_clock: FakeClock, in_test: Api) -> None:
    for remaining in (2, 1, 0):
        response = in_test.get("/v1/me")
        assert response.status_code == 200
        assert response.headers["RateLimit-Limit"] == "3"
        assert response.headers["RateLimit-Remaining"] == str(remaining)
        assert response.headers["RateLimit-Reset"].isdigit()
        assert "Retry-After" not in response.headers
    fake_clock.advance(0.5)
    response = in_test.get("/v1/me")
    assert assert_429(response, TEST_LIMIT) == 1
    assert response.headers["Content-Type"] == "application/json"


def test_fourth_request_is_429_on_the_real_clock(in_test: Api) -> None:
    started = time.monotonic()
    exhaust(in_test, TEST_LIMIT)
    response = in_test.get("/v1/me")
    if time.monotonic() - started < 0.9:  # the window surely has not passed yet
        assert assert_429(response, TEST_LIMIT) >= 0


def test_window_passes(fake_clock: FakeClock, in_test: Api) -> None:
    exhaust(in_test, TEST_LIMIT)
    assert_429(in_test.get("/v1/me"), TEST_LIMIT)
    fake_clock.advance(1.01)
    response = in_test.get("/v1/me")
    assert response.status_code == 200
    assert response.headers["RateLimit-Remaining"] == "2"


def test_retry_after_is_at_least_one_second_late_in_the_window(fake_clock: FakeClock,
                                                               in_test: Api) -> None:
    exhaust(in_test, TEST_LIMIT)
    fake_clock.advance(0.95)  # the window ends in 0.05 s
    assert assert_429(in_test.get("/v1/me"), TEST_LIMIT) >= 1


def test_live_key_has_its_own_bucket_of_5(fake_clock: FakeClock, in_test: Api,
                                          in_live: Api) -> None:
    exhaust(in_test, TEST_LIMIT)
    assert_429(in_test.get("/v1/me"), TEST_LIMIT)
    for remaining in (4, 3, 2, 1, 0):
        response = in_live.get("/v1/me")
        assert response.status_code == 200
        assert response.headers["RateLimit-Limit"] == "5"
        assert response.headers["RateLimit-Remaining"] == str(remaining)
    assert_429(in_live.get("/v1/me"), LIVE_LIMIT)
    assert_429(in_test.get("/v1/me"), TEST_LIMIT)


def test_another_organization_has_its_own_bucket(fake_clock: FakeClock, limited: Flask,
                                                 in_test: Api) -> None:
    other = Api(limited.test_client(), make_org(limited, "Other Co")["keys"]["test"])
    exhaust(in_test, TEST_LIMIT)
    assert_429(in_test.get("/v1/me"), TEST_LIMIT)
    response = other.get("/v1/me")
    assert response.status_code == 200
    assert response.headers["RateLimit-Remaining"] == "2"


def test_the_bucket_is_per_organization_and_environment_not_per_key(
        fake_clock: FakeClock, limited: Flask, limited_org: dict, in_test: Api) -> None:
    from webapp.services.accounts import api_keys

    with limited.app_context():
        _key, secret = api_keys.create(limited_org["id"], "test", "Second")
    second = Api(limited.test_client(), secret)
    exhaust(in_test, TEST_LIMIT)
    assert_429(second.get("/v1/me"), TEST_LIMIT)


def test_invalid_keys_get_401_even_when_the_bucket_is_full(
        fake_clock: FakeClock, limited: Flask, limited_org: dict, in_test: Api) -> None:
    from webapp.services.accounts import api_keys

    with limited.app_context():
        key, secret = api_keys.create(limited_org["id"], "test", "Soon revoked")
        api_keys.revoke(key.id)
    exhaust(in_test, TEST_LIMIT)
    client = limited.test_client()
    for headers in ({}, {"Authorization": "Bearer svc_test_" + "a" * 32},
                    {"Authorization": f"Bearer {secret}"},  # revoked, same organization
                    {"Authorization": f"Basic {limited_org['keys']['test']}"}):
        for method in ("GET", "POST"):
            response = client.open("/v1/me" if method == "GET" else "/v1/templates",
                                   method=method, headers=headers)
            error = assert_error(response, 401, None, "invalid_api_key")
            assert error == {"code": "invalid_api_key", "message": "Invalid API key provided."}
            assert "Retry-After" not in response.headers
    assert_429(in_test.get("/v1/me"), TEST_LIMIT)


def test_429_comes_before_the_idempotency_key_check(fake_clock: FakeClock, in_test: Api
                                                    ) -> None:
    def post_without_key() -> Any:
        return in_test.client.post("/v1/templates", json=template_body(), headers={
            "Authorization": f"Bearer {in_test.key}"})

    for _ in range(TEST_LIMIT):  # answered 400, and counted
        assert_error(post_without_key(), 400, "invalid_request_error",
                     "idempotency_key_missing", "Idempotency-Key")
    assert_429(post_without_key(), TEST_LIMIT)
    bad_key = in_test.post("/v1/templates", json=template_body(), headers={
        "Idempotency-Key": ""})
    assert_429(bad_key, TEST_LIMIT)
    bad_body = in_test.request("POST", "/v1/templates", data="not json",
                                headers={"Content-Type": "application/json"})
    assert_429(bad_body, TEST_LIMIT)
    fake_clock.advance(1.01)
    assert_error(post_without_key(), 400, "invalid_request_error", "idempotency_key_missing",
                 "Idempotency-Key")


def test_a_429_is_not_stored_by_idempotency(fake_clock: FakeClock, in_test: Api) -> None:
    for _ in range(TEST_LIMIT):
        assert in_test.post("/v1/templates", json={}).status_code == 400
    limited_response = in_test.post("/v1/templates", json=template_body(), idem="create-1")
    assert_429(limited_response, TEST_LIMIT)
    assert "Idempotent-Replayed" not in limited_response.headers

    fake_clock.advance(1.01)
    created = in_test.post("/v1/templates", json=template_body(), idem="create-1")
    assert created.status_code == 201, created.get_data(as_text=True)
    assert "Idempotent-Replayed" not in created.headers
    assert created.headers["RateLimit-Remaining"] == "2"

    replay = in_test.post("/v1/templates", json=template_body(), idem="create-1")
    assert replay.status_code == 201
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.get_json() == created.get_json()
    fake_clock.advance(1.01)
    listing = in_test.get("/v1/templates").get_json()
    assert [t["id"] for t in listing["data"]] == [created.get_json()["id"]]


def test_successes_and_business_errors_carry_limit_headers_but_no_retry_after(
        fake_clock: FakeClock, in_live: Api) -> None:
    same_endpoint = [
        in_live.get("/v1/templates"),  # 200
        in_live.get("/v1/templates?limit=0"),  # 400
        in_live.get("/v1/templates?cursor=tmpl_nothing"),  # 400
    ]
    assert [r.status_code for r in same_endpoint] == [200, 400, 400]
    for remaining, response in zip((4, 3, 2), same_endpoint, strict=True):
        assert response.headers["RateLimit-Remaining"] == str(remaining)
    others = [
        in_live.post("/v1/templates", json=template_body()),  # 201
        in_live.get("/v1/templates/tmpl_nothing"),  # 404
    ]
    assert [r.status_code for r in others] == [201, 404]
    for response in same_endpoint + others:
        assert "Retry-After" not in response.headers, response.status_code
        assert response.headers["RateLimit-Limit"] == "5"
        assert response.headers["RateLimit-Remaining"].isdigit()
        assert response.headers["RateLimit-Reset"].isdigit()


def test_one_bucket_for_every_endpoint(fake_clock: FakeClock, in_test: Api) -> None:
    exhaust(in_test, TEST_LIMIT)
    assert_429(in_test.get("/v1/templates"), TEST_LIMIT)
    assert_429(in_test.post("/v1/templates", json=template_body()), TEST_LIMIT)


def test_openapi_document_is_not_limited(fake_clock: FakeClock, limited: Flask,
                                         in_test: Api) -> None:
    exhaust(in_test, TEST_LIMIT)
    for _ in range(TEST_LIMIT + 2):
        assert limited.test_client().get("/v1/openapi.json").status_code == 200


# ---- /v1 without a valid key: per client IP -------------------------------------------------

RATE_LIMITED = {
    "error": {"type": "rate_limit_error", "code": "rate_limit_exceeded",
              "message": "Too many requests hit the API too quickly. Retry after the number of "
                         "seconds in Retry-After, with exponential backoff."}}


def bad_credentials(limited: Flask, limited_org: dict) -> list[dict[str, str]]:
    """No key, an unknown key, a revoked key, another scheme, an empty bearer."""
    from webapp.services.accounts import api_keys

    with limited.app_context():
        key, secret = api_keys.create(limited_org["id"], "test", "Soon revoked")
        api_keys.revoke(key.id)
    return [{}, {"Authorization": "Bearer svc_test_" + "a" * 32},
            {"Authorization": f"Bearer {secret}"},
            {"Authorization": f"Basic {limited_org['keys']['test']}"}, {"Authorization": "Bearer"}]


def test_requests_without_a_valid_key_are_limited_per_client_ip(
        fake_clock: FakeClock, limited: Flask, limited_org: dict, in_test: Api) -> None:
    client = limited.test_client()
    bad = bad_credentials(limited, limited_org)
    exhaust(in_test, TEST_LIMIT)  # a valid key's requests do not count here
    for i in range(UNAUTHENTICATED_LIMIT):
        response = client.get("/v1/me", headers=bad[i % len(bad)])
        error = assert_error(response, 401, None, "invalid_api_key")
        assert error == {"code": "invalid_api_key", "message": "Invalid API key provided."}
        assert response.headers["RateLimit-Limit"] == str(UNAUTHENTICATED_LIMIT)
        assert response.headers["RateLimit-Remaining"] == str(UNAUTHENTICATED_LIMIT - 1 - i)
        assert "Retry-After" not in response.headers
    for headers in bad:
        for method, path in (("GET", "/v1/me"), ("POST", "/v1/templates")):
            response = client.open(path, method=method, headers=headers, json={})
            assert response.status_code == 429
            assert response.headers["Content-Type"] == "application/json"
            assert response.get_json() == RATE_LIMITED | {
                "requestId": response.headers["Request-Id"]}
            assert response.headers["Retry-After"] == "60"
            assert response.headers["RateLimit-Limit"] == str(UNAUTHENTICATED_LIMIT)
            assert response.headers["RateLimit-Remaining"] == "0"
    # Another address has its own allowance; a valid key from this one is not held back.
    other = client.get("/v1/me", environ_base={"REMOTE_ADDR": "198.51.100.4"})
    assert_error(other, 401, None, "invalid_api_key")
    fake_clock.advance(1.01)
    response = in_test.get("/v1/me")
    assert response.status_code == 200
    assert response.headers["RateLimit-Limit"] == str(TEST_LIMIT)
    assert response.headers["RateLimit-Remaining"] == str(TEST_LIMIT - 1)

    fake_clock.advance(57.5)  # 58.51 s into the minute: it ends in 1.49 s, rounded up
    limited_response = client.get("/v1/me")
    assert limited_response.get_json() == RATE_LIMITED | {
        "requestId": limited_response.headers["Request-Id"]}
    assert limited_response.headers["Retry-After"] == "2"
    fake_clock.advance(1.5)
    assert_error(client.get("/v1/me"), 401, None, "invalid_api_key")


def test_the_unauthenticated_limit_is_configurable(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    from webapp import config

    monkeypatch.delenv("RATE_LIMIT_UNAUTHENTICATED", raising=False)
    assert config.load(str(tmp_path))["RATE_LIMIT_UNAUTHENTICATED"] == 60
    monkeypatch.setenv("RATE_LIMIT_UNAUTHENTICATED", "7")
    assert config.load(str(tmp_path))["RATE_LIMIT_UNAUTHENTICATED"] == 7


# ---- public routes: per client IP -----------------------------------------------------------

def _asset(in_live: Api) -> str:
    buf = io.BytesIO()
    Image.new("RGB", (32, 32), "#aa3300").save(buf, "PNG")
    response = in_live.post("/v1/assets", json={
        "slot": "icon", "data": base64.b64encode(buf.getvalue()).decode()})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()["id"]


def test_public_asset_bytes_are_limited_per_ip_per_minute(fake_clock: FakeClock, limited: Flask,
                                                          in_live: Api, in_test: Api) -> None:
    asset_id = _asset(in_live)
    client = limited.test_client()
    for remaining in (1, 0):
        response = client.get(f"/assets/{asset_id}")  # no key needed
        assert response.status_code == 200
        assert response.headers["RateLimit-Limit"] == str(PUBLIC_LIMIT)
        assert response.headers["RateLimit-Remaining"] == str(remaining)
        assert "Retry-After" not in response.headers
    limited_response = client.get(f"/assets/{asset_id}")
    assert limited_response.status_code == 429
    assert 1 <= int(limited_response.headers["Retry-After"]) <= 60
    assert limited_response.headers["RateLimit-Remaining"] == "0"
    assert not limited_response.headers["Content-Type"].startswith("image/")
    # Unknown IDs count too; another client IP has its own bucket.
    assert client.get("/assets/asset_unknown").status_code == 429
    other_ip = client.get(f"/assets/{asset_id}", environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other_ip.status_code == 200
    # The API buckets are separate from the public one, in both directions.
    assert in_test.get("/v1/me").status_code == 200

    fake_clock.advance(30)
    assert client.get(f"/assets/{asset_id}").status_code == 429
    fake_clock.advance(31)
    assert client.get(f"/assets/{asset_id}").status_code == 200


def test_public_requests_do_not_use_the_api_bucket(fake_clock: FakeClock, limited: Flask,
                                                   limited_org: dict, in_test: Api) -> None:
    client = limited.test_client()
    for i in range(PUBLIC_LIMIT):
        ip = f"10.1.0.{i}"
        assert client.get("/assets/asset_unknown",
                          environ_base={"REMOTE_ADDR": ip}).status_code == 404
    response = in_test.get("/v1/me")
    assert response.status_code == 200
    assert response.headers["RateLimit-Remaining"] == "2"


def test_one_public_bucket_for_every_public_route(fake_clock: FakeClock, limited: Flask) -> None:
    client = limited.test_client()
    for _ in range(PUBLIC_LIMIT):
        assert client.get("/assets/asset_unknown").status_code == 404
    assert client.get("/p/NOSUCHPASS23").status_code == 429
