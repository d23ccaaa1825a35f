"""Fixtures: a migrated database per test (SQLite file copy, or a PostgreSQL lane), the app,
and small API clients. The test database is always built by running the migrations.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.services import PostgresCluster
from webapp import clock, create_app

BASE_URL = "https://passes.example.test"
# This test process's metric files (webapp.metrics), apart from other runs' and xdist workers'.
os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="pass-service-metrics-")
atexit.register(shutil.rmtree, os.environ["PROMETHEUS_MULTIPROC_DIR"], True)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--db", choices=["sqlite", "postgres"], default="sqlite",
                     help="database lane: sqlite (default) or postgres (a throwaway cluster)")


def base_overrides(tmp: Path, database_url: str) -> dict[str, Any]:
    return {
        "DATABASE_URL": database_url,
        "SECRET_KEY": "test-secret-key",
        "ENCRYPTION_KEYS": "dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktdGVzdDE=",
        "BASE_URL": BASE_URL,
        "RATE_LIMIT_TEST": 100000,
        "RATE_LIMIT_LIVE": 100000,
        "RATE_LIMIT_PUBLIC": 100000,
        "RATE_LIMIT_FILE": str(tmp / "ratelimits.sqlite"),  # each test counts on its own
        "TESTING": True,
        "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",  # scrypt's 0.3 s, in nearly every test
    }


def _migrate(url: str, tmp: Path) -> None:
    from flask_migrate import upgrade

    app = create_app(base_overrides(tmp, url))
    with app.app_context():
        upgrade()
        from webapp.extensions import db

        db.engine.dispose()


@pytest.fixture(scope="session")
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[dict[str, Any]]:
    """The migrated database every test starts from."""
    tmp = tmp_path_factory.mktemp("db")
    if request.config.getoption("--db") == "postgres":
        cluster = PostgresCluster()
        try:
            import psycopg

            with psycopg.connect(cluster.url().replace("+psycopg", ""), autocommit=True) as c:
                c.execute("CREATE DATABASE app")
            url = cluster.url("app")
            _migrate(url, tmp)
            yield {"kind": "postgres", "url": url, "tmp": tmp}
        finally:
            cluster.stop()
    else:
        template = tmp / "template.sqlite3"
        _migrate(f"sqlite:///{template}", tmp)
        yield {"kind": "sqlite", "template": template, "tmp": tmp}


def _empty_all(app: Flask) -> None:
    """Empty every table, children first. DELETE, not TRUNCATE: a test leaves a few rows,
    and TRUNCATE's new files for 39 tables and their indexes cost 54 ms a test against 8."""
    from webapp.extensions import db

    with db.engine.begin() as conn:
        for table in reversed(db.metadata.sorted_tables):
            conn.execute(table.delete())


@pytest.fixture
def empty_database(database: dict[str, Any], tmp_path: Path) -> Iterator[str]:
    """A database of its own, not yet migrated (a file, or a new PostgreSQL database)."""
    if database["kind"] == "sqlite":
        yield f"sqlite:///{tmp_path / 'migrate.sqlite3'}"
        return
    import psycopg

    server = database["url"].rsplit("/", 1)[0]
    name = f"migrate_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{server}/postgres".replace("+psycopg", ""), autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    yield f"{server}/{name}"
    with psycopg.connect(f"{server}/postgres".replace("+psycopg", ""), autocommit=True) as c:
        c.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def database_url(database: dict[str, Any], tmp_path: Path) -> str:
    if database["kind"] == "sqlite":
        path = tmp_path / "test.sqlite3"
        shutil.copyfile(database["template"], path)
        return f"sqlite:///{path}"
    return database["url"]


def app_with(database: dict[str, Any], database_url: str, tmp_path: Path,
             extra: dict[str, Any] | None = None) -> Iterator[Flask]:
    """An app on this test's database with `extra` configuration; for `app` fixtures
    (`yield from app_with(...)`): empties a PostgreSQL database first, and afterwards waits
    for the test's background jobs and closes the connections."""
    overrides = {**base_overrides(tmp_path, database_url), **(extra or {})}
    app = create_app(overrides)
    app.instance_path = str(tmp_path / "instance")
    with app.app_context():
        if database["kind"] == "postgres":
            _empty_all(app)
    yield app
    _finish_background_jobs(app)
    clock.set_now(None)
    with app.app_context():
        from webapp.extensions import db

        db.engine.dispose()


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path) -> Iterator[Flask]:
    yield from app_with(database, database_url, tmp_path)


def _finish_background_jobs(app: Flask) -> None:
    """Let this test's in-process jobs finish before its database goes away, so that none
    of them writes into (or locks) the next test's database."""
    from jobs import queue

    for executor in app.extensions[queue.EXECUTORS].values():
        executor.shutdown(wait=True)


@pytest.fixture
def patient_tap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A holder's tap that writes a Google object waits as long as a job would: on a loaded CI
    machine the fake Google has taken 4 s to answer (the short wait is tested on its own)."""
    from webapp.services.google import sync

    monkeypatch.setattr(sync, "PERSON_WAITING_TIMEOUT", 60.0)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class Api:
    """A /v1 client with a key and an automatic Idempotency-Key on writes."""

    def __init__(self, client: FlaskClient, key: str | None):
        self.client, self.key = client, key

    def headers(self, extra: dict[str, str] | None = None, idem: str | None = None,
                method: str = "GET") -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        if method in ("POST", "PUT", "PATCH", "DELETE"):
            headers["Idempotency-Key"] = idem or str(uuid.uuid4())
        headers.update(extra or {})
        return headers

    def request(self, method: str, path: str, json: Any = None, *, idem: str | None = None,
                headers: dict[str, str] | None = None, **kw: Any) -> Any:
        return self.client.open(path, method=method, json=json,
                                headers=self.headers(headers, idem, method), **kw)

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)

    def post(self, path: str, json: Any = None, **kw: Any) -> Any:
        return self.request("POST", path, json, **kw)

    def patch(self, path: str, json: Any = None, **kw: Any) -> Any:
        return self.request("PATCH", path, json, **kw)

    def delete(self, path: str, **kw: Any) -> Any:
        return self.request("DELETE", path, **kw)


def upload_asset(api: Api, slot: str, data: str) -> str:
    """POST /v1/assets with the base64 image `data`; the new asset's ID."""
    response = api.post("/v1/assets", {"slot": slot, "data": data})
    assert response.status_code == 201
    return str(response.get_json()["id"])


def put_pass_image(api: Api, pass_id: str, slot: str, asset_id: str) -> dict[str, Any]:
    """Give a pass its own image in `slot`; the answer (the pass and its update)."""
    response = api.request("PUT", f"/v1/passes/{pass_id}/images/{slot}",
                           {"assetId": asset_id},
                           headers={"Idempotency-Key": str(uuid.uuid4())})
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def _organization(app: Flask, name: str, email_prefix: str) -> dict[str, Any]:
    from webapp.services.accounts import organizations

    with app.app_context():
        created = organizations.create(name, f"{email_prefix}-{uuid.uuid4().hex[:8]}@acme.test",
                                       "correct horse battery")
        return {"id": created.organization.id, "keys": created.keys, "email": created.email,
                "password": created.password}


@pytest.fixture
def org(app: Flask) -> dict[str, Any]:
    """An organization with its test and live keys and its owner's login."""
    return _organization(app, "Acme Tickets", "owner")


@pytest.fixture
def other_org(app: Flask) -> dict[str, Any]:
    """Another organization, likewise."""
    return _organization(app, "Other Co", "other")


@pytest.fixture
def api(client: FlaskClient, org: dict[str, Any]) -> Api:
    """The organization's test-environment client."""
    return Api(client, org["keys"]["test"])


@pytest.fixture
def live_api(client: FlaskClient, org: dict[str, Any]) -> Api:
    return Api(client, org["keys"]["live"])


@pytest.fixture
def other_api(client: FlaskClient, other_org: dict[str, Any]) -> Api:
    return Api(client, other_org["keys"]["test"])


def assert_error(response: Any, status: int, type_: str | None, code: str | None = None,
                 param: str | None = None) -> dict[str, Any]:
    """Assert the documented error shape exactly."""
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error", "requestId"}
    assert body["requestId"] == response.headers["Request-Id"]
    assert body["requestId"].startswith("req_")
    error = body["error"]
    assert isinstance(error["message"], str) and error["message"]
    if type_ is None:
        assert "type" not in error
    else:
        assert error["type"] == type_
    if code is not None:
        assert error["code"] == code
    if param is not None:
        assert error.get("param") == param
    return error


@pytest.fixture
def png() -> Any:
    """A function that makes a base64 PNG of a size (and colour)."""
    import base64
    import io

    from PIL import Image

    def make(width: int = 64, height: int = 64, color: str = "#3366cc", fmt: str = "PNG") -> str:
        buf = io.BytesIO()
        Image.new("RGB", (width, height), color).save(buf, fmt)
        return base64.b64encode(buf.getvalue()).decode()

    return make


@pytest.fixture
def mailbox() -> Iterator[Any]:
    """An SMTP server on a free loopback port (aiosmtpd) that keeps what it receives."""
    from tests.support.smtp import Mailbox

    box = Mailbox().start()
    yield box
    box.stop()


@pytest.fixture
def receiver() -> Iterator[Any]:
    """A webhook receiver on a free loopback port (tests/support/receiver.py)."""
    from tests.support.receiver import Receiver

    server = Receiver().start()
    yield server
    server.stop()
