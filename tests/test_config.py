"""Settings read from the environment: the links follow where `make run` serves."""

from __future__ import annotations

from pathlib import Path

import pytest

from webapp import config

SECRETS = {"SECRET_KEY": "k", "ENCRYPTION_KEYS": "dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktdGVzdDE="}


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BASE_URL", "HOST", "PORT"):
        monkeypatch.delenv(name, raising=False)


def test_base_url_defaults_to_where_flask_run_serves(tmp_path: Path) -> None:
    assert config.load(str(tmp_path), SECRETS)["BASE_URL"] == "http://127.0.0.1:5000"


def test_base_url_follows_host_and_port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    monkeypatch.setenv("PORT", "5077")
    assert config.load(str(tmp_path), SECRETS)["BASE_URL"] == "http://127.0.0.1:5077"
    monkeypatch.setenv("HOST", "localhost")
    assert config.load(str(tmp_path), SECRETS)["BASE_URL"] == "http://localhost:5077"


@pytest.mark.parametrize(("host", "url"), [
    ("0.0.0.0", "http://127.0.0.1:8000"),
    ("::", "http://127.0.0.1:8000"),
    ("::1", "http://[::1]:8000"),
])
def test_wildcard_and_ipv6_hosts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host: str,
                                 url: str) -> None:
    monkeypatch.setenv("HOST", host)
    monkeypatch.setenv("PORT", "8000")
    assert config.load(str(tmp_path), SECRETS)["BASE_URL"] == url


def test_a_set_base_url_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "5077")
    monkeypatch.setenv("BASE_URL", "https://passes.example.com/")
    assert config.load(str(tmp_path), SECRETS)["BASE_URL"] == "https://passes.example.com"
