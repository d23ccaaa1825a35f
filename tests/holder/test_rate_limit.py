"""The public pages share one per-IP limit (decisions.md section 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import base_overrides
from webapp import create_app

LIMIT = 3


def test_holder_pages_are_limited_per_client_ip(database: dict[str, Any], database_url: str,
                                                tmp_path: Path) -> None:
    overrides = base_overrides(tmp_path, database_url)
    overrides["RATE_LIMIT_PUBLIC"] = LIMIT
    app = create_app(overrides)
    app.instance_path = str(tmp_path / "instance")
    client = app.test_client()
    one = {"REMOTE_ADDR": "203.0.113.7"}
    paths = ["/p/AAAAAAAAAAAA", "/d/" + "x" * 40, "/p/BBBBBBBBBBBB"]
    for path in paths:  # /p and /d draw on the same bucket
        assert client.get(path, environ_base=one).status_code == 404
    limited = client.get("/p/AAAAAAAAAAAA", environ_base=one)
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) >= 1
    assert "AAAAAAAAAAAA" not in limited.get_data(as_text=True)
    other = client.get("/d/" + "y" * 40, environ_base={"REMOTE_ADDR": "203.0.113.8"})
    assert other.status_code == 404  # another address has its own allowance
    with app.app_context():
        from webapp.extensions import db

        db.engine.dispose()


def test_the_apple_web_service_has_its_own_per_ip_limit(database: dict[str, Any],
                                                        database_url: str,
                                                        tmp_path: Path) -> None:
    """Many devices share a carrier NAT address: the web service does not draw on the holder
    pages' allowance, and has a (larger) one of its own."""
    overrides = base_overrides(tmp_path, database_url)
    overrides["RATE_LIMIT_PUBLIC"] = LIMIT
    overrides["RATE_LIMIT_APPLE_WEB_SERVICE"] = LIMIT + 3
    app = create_app(overrides)
    app.instance_path = str(tmp_path / "instance")
    client = app.test_client()
    nat = {"REMOTE_ADDR": "203.0.113.9"}
    for _ in range(LIMIT):
        assert client.get("/p/AAAAAAAAAAAA", environ_base=nat).status_code == 404
    assert client.get("/p/AAAAAAAAAAAA", environ_base=nat).status_code == 429
    statuses = [client.post("/wallet/apple/v1/log", json={"logs": ["hello"]},
                            environ_base=nat).status_code for _ in range(LIMIT + 3)]
    assert 429 not in statuses
    limited = client.get("/wallet/apple/v1/devices/dev1/registrations/pass.example",
                         environ_base=nat)
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) >= 1
    with app.app_context():
        from webapp.extensions import db

        db.engine.dispose()
