"""Redis is not on the holder's path: with the rate limits' and the jobs' Redis stopped, the
API, holder pages, .pkpass downloads, assets, the Apple web service and the dashboard answer
as usual (no 500, no long waits); limits count in memory meanwhile and again in Redis once
it is back; the outage is logged at most once a minute."""

from __future__ import annotations

import base64
import io
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from PIL import Image

from tests.api.factories import template_body
from tests.apple.conftest import DEMO_PASS_TYPE, Device, apple_overrides, auth_token
from tests.conftest import Api, app_with
from tests.jobs.conftest import Redis


@pytest.fixture
def redis_app(database: dict[str, Any], database_url: str, tmp_path: Path, redis: Redis
              ) -> Iterator[Flask]:
    """The app with its rate limits and jobs in Redis, as on several machines."""
    yield from app_with(database, database_url, tmp_path, {
        **apple_overrides(), "JOBS_SYNCHRONOUS": False, "REDIS_URL": redis.url,
        "RATE_LIMIT_TEST": 50, "RATE_LIMIT_PUBLIC": 1000})


def _png() -> str:
    out = io.BytesIO()
    Image.new("RGB", (64, 64), "#336699").save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


def _every_door(app: Flask, api: Api, client: Any, key: str) -> list[tuple[str, int]]:
    """One request through each door a holder, an integrator and staff use: (what, status)."""
    asset = api.post("/v1/assets", {"slot": "icon", "data": _png()})
    template = api.post("/v1/templates", template_body(images={"icon": asset.get_json()["id"]}))
    issued = api.post("/v1/passes", {"templateId": template.get_json()["id"],
                                     "fieldValues": {"member": "Ada"}})
    item = issued.get_json()
    changed = api.patch(f"/v1/passes/{item['id']}", {"fieldValues": {"member": "Bo"}})
    device = Device(client, "phone-1", "a" * 64)
    token = auth_token(app, item["id"])
    return [
        ("me", api.get("/v1/me").status_code),
        ("asset", asset.status_code), ("template", template.status_code),
        ("issue", issued.status_code), ("update", changed.status_code),
        ("list", api.get("/v1/passes").status_code),
        ("holder page", client.get(f"/p/{item['shortId']}").status_code),
        ("pkpass", client.get(f"/p/{item['shortId']}/apple.pkpass").status_code),
        ("public asset", client.get(f"/assets/{asset.get_json()['id']}").status_code),
        ("register", device.register(DEMO_PASS_TYPE, item["id"], token).status_code),
        ("wallet fetch", device.fetch(DEMO_PASS_TYPE, item["id"], token).status_code),
        ("dashboard sign-in page", client.get("/dashboard/login").status_code),
    ]


def test_with_redis_down_every_door_answers(redis_app: Flask, redis: Redis,
                                            caplog: pytest.LogCaptureFixture) -> None:
    from tests.conftest import _organization

    org = _organization(redis_app, "Outage Co", "outage")
    client = redis_app.test_client()
    api = Api(client, org["keys"]["test"])
    assert all(status < 300 for _, status in _every_door(redis_app, api, client, api.key))

    redis.stop()
    caplog.set_level(logging.WARNING)
    started = time.monotonic()
    answers = _every_door(redis_app, api, client, api.key) + \
        _every_door(redis_app, api, client, api.key)
    assert [what for what, status in answers if status >= 300] == [], answers
    assert time.monotonic() - started < 15  # nobody waits on the dead Redis each time
    outage = [r for r in caplog.records if r.name == "flask-limiter"]
    assert len(outage) == 1, [r.getMessage() for r in outage]  # once, not per request


def test_limits_count_in_memory_during_the_outage_and_in_redis_after(
        redis_app: Flask, redis: Redis) -> None:
    from tests.conftest import _organization

    redis_app.config["RATE_LIMIT_TEST"] = 3
    org = _organization(redis_app, "Outage Co", "outage")
    api = Api(redis_app.test_client(), org["keys"]["test"])
    redis.stop()
    statuses = [api.get("/v1/me").status_code for _ in range(5)]
    assert statuses[:3] == [200, 200, 200] and 429 in statuses  # this process's counters
    redis.start()
    from redis import Redis as Client

    counters = Client.from_url(redis.url)
    deadline = time.monotonic() + 40  # Flask-Limiter looks for the storage again, backing off
    while not counters.keys("*") and time.monotonic() < deadline:
        api.get("/v1/me")
        time.sleep(0.5)
    assert counters.keys("*")  # counted in Redis again
