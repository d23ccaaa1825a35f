"""Start-up checks: production refuses what several machines cannot run on (no BASE_URL, a
SQLite file without saying so) and warns without Redis; any node whose ENCRYPTION_KEYS cannot
read the database's secrets refuses to start, naming the setting."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import base_overrides
from webapp import config, create_app

KEY_A = "dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktdGVzdDE="
KEY_B = "b3RoZXIta2V5LW90aGVyLWtleS1vdGhlci1rZXktMTI="
PRODUCTION = {"APP_ENV": "production", "SECRET_KEY": "s" * 40, "ENCRYPTION_KEYS": KEY_A,
              "BASE_URL": "https://passes.example.com",
              "DATABASE_URL": "postgresql+psycopg://app@127.0.0.1:9/app"}


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("APP_ENV", "BASE_URL", "DATABASE_URL", "REDIS_URL", "SECRET_KEY",
                 "ENCRYPTION_KEYS", "ALLOW_SQLITE_IN_PRODUCTION", "PASSWORD_HASH_METHOD"):
        monkeypatch.delenv(name, raising=False)


def _unseal(database_url: str) -> None:
    """Forget the installation's key check (a PostgreSQL lane's database outlives a test)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM installation_values"))
    engine.dispose()


@pytest.fixture(autouse=True)
def _fresh_installation(database_url: str) -> Any:
    _unseal(database_url)
    yield
    _unseal(database_url)


def test_production_needs_base_url(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match="needs BASE_URL"):
        config.load(str(tmp_path), {**PRODUCTION, "BASE_URL": None})
    assert config.load(str(tmp_path), PRODUCTION)["BASE_URL"] == "https://passes.example.com"


def test_production_refuses_sqlite_unless_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:
    for database in ({"DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite3"}, {}):
        settings = {k: v for k, v in PRODUCTION.items() if k != "DATABASE_URL"} | database
        with pytest.raises(config.ConfigError, match="ALLOW_SQLITE_IN_PRODUCTION=1"):
            config.load(str(tmp_path), settings)
    monkeypatch.setenv("ALLOW_SQLITE_IN_PRODUCTION", "1")
    allowed = config.load(str(tmp_path), {k: v for k, v in PRODUCTION.items()
                                          if k != "DATABASE_URL"})
    assert allowed["DATABASE_URL"].startswith("sqlite:///")


def test_production_hashes_passwords_with_scrypt_only(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert config.load(str(tmp_path), PRODUCTION)["PASSWORD_HASH_METHOD"] == "scrypt"
    monkeypatch.setenv("PASSWORD_HASH_METHOD", "pbkdf2:sha256:1000")
    with pytest.raises(config.ConfigError, match="unset PASSWORD_HASH_METHOD"):
        config.load(str(tmp_path), PRODUCTION)


def test_a_new_owner_password_is_hashed_with_scrypt_by_default(
        database: dict[str, Any], database_url: str, tmp_path: Path) -> None:
    from webapp.services.accounts import organizations

    app = _app(database, database_url, tmp_path, PASSWORD_HASH_METHOD="scrypt")
    with app.app_context():
        organizations.create("Acme", "owner@acme.test", "correct horse battery")
        user = organizations.check_login("owner@acme.test", "correct horse battery")
        assert user is not None
        assert user.password_hash.startswith("scrypt:")
        assert organizations.check_login("owner@acme.test", "wrong horse battery") is None
        assert organizations.check_login("nobody@acme.test", "correct horse battery") is None


def _app(database: dict[str, Any], url: str, tmp: Path, **settings: Any) -> Any:
    overrides = {**base_overrides(tmp, url), **settings}
    return create_app(overrides)


def test_production_without_redis_warns(database: dict[str, Any], database_url: str,
                                        tmp_path: Path, caplog: pytest.LogCaptureFixture
                                        ) -> None:
    caplog.set_level(logging.WARNING, logger="webapp")
    _app(database, database_url, tmp_path, APP_ENV="production",
         ALLOW_SQLITE_IN_PRODUCTION=True, PASSWORD_HASH_METHOD="scrypt")
    [warning] = [r for r in caplog.records if r.name == "webapp"]
    assert "REDIS_URL is not set" in warning.getMessage()


def test_a_node_with_other_encryption_keys_refuses_to_start(
        database: dict[str, Any], database_url: str, tmp_path: Path) -> None:
    first = _app(database, database_url, tmp_path, ENCRYPTION_KEYS=KEY_A)  # seals the check
    with pytest.raises(config.ConfigError, match=r"^ENCRYPTION_KEYS cannot read"):
        _app(database, database_url, tmp_path, ENCRYPTION_KEYS=KEY_B)
    # A rotation keeps the old key after the new one: it starts.
    rotated = _app(database, database_url, tmp_path, ENCRYPTION_KEYS=f"{KEY_B},{KEY_A}")
    for app in (first, rotated):
        with app.app_context():
            from webapp.extensions import db

            db.engine.dispose()


def test_two_nodes_that_made_up_their_secrets_say_so(database: dict[str, Any],
                                                     database_url: str, tmp_path: Path) -> None:
    """Outside production each node generates its secrets into its instance folder: on one
    shared database the second node's cannot read the first's, and it says what to do."""
    nodes = []
    for name in ("node-a", "node-b"):
        settings = {k: v for k, v in base_overrides(tmp_path, database_url).items()
                    if k not in ("SECRET_KEY", "ENCRYPTION_KEYS")}
        instance = tmp_path / name
        instance.mkdir()
        nodes.append((settings, instance))
    from flask import Flask

    def start(settings: dict[str, Any], instance: Path) -> Flask:
        import os

        os.environ["INSTANCE_PATH"] = str(instance)
        try:
            return create_app(settings)
        finally:
            del os.environ["INSTANCE_PATH"]

    start(*nodes[0])
    with pytest.raises(config.ConfigError) as refused:
        start(*nodes[1])
    message = str(refused.value)
    assert "ENCRYPTION_KEYS" in message and str(nodes[1][1] / "secrets.json") in message
    assert "SECRET_KEY and ENCRYPTION_KEYS in the environment of every node" in message
    shutil.copy(nodes[0][1] / "secrets.json", nodes[1][1] / "secrets.json")
    start(*nodes[1])  # the same secrets: it starts
