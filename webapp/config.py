"""Configuration, read from the environment only (decisions.md section 13).

`load(instance_path, overrides)` returns the settings as a plain dict. Production
(`APP_ENV=production`) refuses to start without `SECRET_KEY`, `ENCRYPTION_KEYS` and
`BASE_URL`, and on SQLite unless `ALLOW_SQLITE_IN_PRODUCTION` says so (a file on one machine:
several nodes need one PostgreSQL database); elsewhere the secrets are generated once and kept
in `instance/secrets.json` so that `make run` works on a bare machine. What must agree with
the database (the encryption key) is checked when the app starts (`create_app`).
"""

from __future__ import annotations

import base64
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DEFAULTS: dict[str, Any] = {
    "APP_ENV": "development",
    "BASE_URL": None,  # unset: http://HOST:PORT, the address `make run` serves on
    "HOST": "127.0.0.1",
    "PORT": 5000,
    "REDIS_URL": None,
    "APNS_URL": "https://api.push.apple.com",
    "GOOGLE_WALLET_API_URL": "https://walletobjects.googleapis.com/walletobjects/v1",
    "GOOGLE_WALLET_SAVE_URL": "https://pay.google.com/gp/v/save/",
    "GOOGLE_TOKEN_URI": "https://oauth2.googleapis.com/token",
    # Google Wallet (docs/decisions.md "Google Wallet"): callback root keys and sender,
    # API timeout in seconds, retries on 429/5xx and the first backoff in milliseconds.
    "GOOGLE_CALLBACK_KEYS_URL": "https://pay.google.com/gp/m/issuer/keys",
    "GOOGLE_CALLBACK_SENDER_ID": "GooglePayPasses",
    "GOOGLE_WALLET_TIMEOUT": 15,
    "GOOGLE_WALLET_RETRIES": 3,
    "GOOGLE_WALLET_BACKOFF_MS": 500,
    # Requests per minute per client IP on POST /wallet/google/callbacks (Google's senders).
    "RATE_LIMIT_GOOGLE_CALLBACKS": 6000,
    # Requests per minute per client IP on /wallet/apple/v1/... (devices behind carrier NAT).
    "RATE_LIMIT_APPLE_WEB_SERVICE": 6000,
    # CA bundle that APNs' server certificate is checked against (unset: the system's).
    "APNS_CA_FILE": None,
    "DEMO_APPLE_P12": None,
    "DEMO_APPLE_P12_PASSWORD": None,
    "DEMO_GOOGLE_ISSUER_ID": None,
    "DEMO_GOOGLE_SERVICE_ACCOUNT": None,
    "WEBHOOKS_ALLOW_PRIVATE_NETWORKS": False,
    # Webhooks and jobs (docs/decisions.md "Webhooks and jobs").
    "WEBHOOK_TIMEOUT_SECONDS": 10,  # a delivery that has no answer by then failed
    "JOBS_LEASE_SECONDS": 60,  # a worker's hold on a row; a dead worker's runs out
    "SWEEP_INTERVAL_SECONDS": 5,  # how often pending rows are looked for
    "SWEEP_STALE_SECONDS": 30,  # a first attempt not made by then is enqueued again
    # Requests per second per organization and environment (decisions.md section 4).
    "RATE_LIMIT_LIVE": 100,
    "RATE_LIMIT_TEST": 25,
    # Requests per minute per client IP on public pages and wallet endpoints.
    "RATE_LIMIT_PUBLIC": 120,
    # Sign-ups (POST /join/<slug>) per minute per client IP: a queue at a venue's poster
    # shares one address, a script filling the form does not get far.
    "RATE_LIMIT_SIGNUP": 20,
    # Requests per minute per client IP on /v1 without a valid key (then 429, not 401).
    "RATE_LIMIT_UNAUTHENTICATED": 60,
    # Where the rate-limit counters are kept without REDIS_URL (instance/ratelimits.sqlite).
    "RATE_LIMIT_FILE": None,
    # Dashboard sessions end after this long without a request, and this long after sign-in
    # however busy (decisions.md "Dashboard"): a working day, and a working week.
    "DASHBOARD_SESSION_IDLE_SECONDS": 12 * 3600,
    "DASHBOARD_SESSION_MAX_SECONDS": 7 * 24 * 3600,
    "LOG_LEVEL": "INFO",
    # Sending passes by email (README "Sending passes by email"): the SMTP server, e.g.
    # smtp://user:pass@host:587 (STARTTLS), smtps://user:pass@host:465, smtp://127.0.0.1:25
    # (plain, loopback only); and the sender address (its name is the organization's).
    "SMTP_URL": None,
    "EMAIL_FROM": None,
    # Emails in any hour: of one pass, and of an organization to one address (decisions.md).
    "EMAIL_PASS_HOURLY_LIMIT": 5,
    "EMAIL_RECIPIENT_HOURLY_LIMIT": 20,
    # How dashboard passwords are hashed (werkzeug's method string). Production refuses any
    # other: only the test suite, which creates a user in nearly every test, sets a cheap one.
    "PASSWORD_HASH_METHOD": "scrypt",
    # Production on SQLite: one machine, its database a file on its disk (docs/deploy.md).
    "ALLOW_SQLITE_IN_PRODUCTION": False,
}

_STRINGS = (
    "APP_ENV", "BASE_URL", "REDIS_URL", "APNS_URL", "GOOGLE_WALLET_API_URL",
    "GOOGLE_WALLET_SAVE_URL", "GOOGLE_TOKEN_URI", "GOOGLE_CALLBACK_KEYS_URL",
    "GOOGLE_CALLBACK_SENDER_ID", "DEMO_APPLE_P12", "DEMO_APPLE_P12_PASSWORD",
    "DEMO_GOOGLE_ISSUER_ID", "DEMO_GOOGLE_SERVICE_ACCOUNT", "SECRET_KEY", "ENCRYPTION_KEYS",
    "DATABASE_URL", "LOG_LEVEL", "APNS_CA_FILE", "HOST", "RATE_LIMIT_FILE", "SMTP_URL",
    "EMAIL_FROM", "METRICS_TOKEN", "PASSWORD_HASH_METHOD",
)
_INTS = ("RATE_LIMIT_LIVE", "RATE_LIMIT_TEST", "RATE_LIMIT_PUBLIC", "RATE_LIMIT_UNAUTHENTICATED",
         "RATE_LIMIT_SIGNUP",
         "GOOGLE_WALLET_TIMEOUT", "GOOGLE_WALLET_RETRIES", "GOOGLE_WALLET_BACKOFF_MS",
         "RATE_LIMIT_GOOGLE_CALLBACKS", "WEBHOOK_TIMEOUT_SECONDS", "JOBS_LEASE_SECONDS",
         "SWEEP_INTERVAL_SECONDS", "SWEEP_STALE_SECONDS", "RATE_LIMIT_APPLE_WEB_SERVICE", "PORT",
         "DASHBOARD_SESSION_IDLE_SECONDS", "DASHBOARD_SESSION_MAX_SECONDS",
         "EMAIL_PASS_HOURLY_LIMIT", "EMAIL_RECIPIENT_HOURLY_LIMIT")
_BOOLS = ("WEBHOOKS_ALLOW_PRIVATE_NETWORKS", "ALLOW_SQLITE_IN_PRODUCTION")

# Decoded asset files may be 5 MiB; base64 makes that 6.67 MiB, plus the JSON around it.
MAX_ASSET_BYTES = 5 * 1024 * 1024
MAX_CONTENT_LENGTH = 8 * 1024 * 1024


class ConfigError(RuntimeError):
    """The configuration cannot run the service."""


def instance_path_from_env(default: str) -> str:
    """The instance folder: `INSTANCE_PATH`, else Flask's default."""
    return os.environ.get("INSTANCE_PATH") or default


def load(instance_path: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Settings from defaults, then the environment, then `overrides` (tests)."""
    settings = dict(DEFAULTS)
    env = os.environ
    for name in _STRINGS:
        if env.get(name):
            settings[name] = env[name]
    for name in _INTS:
        if env.get(name):
            settings[name] = int(env[name])
    for name in _BOOLS:
        if env.get(name):
            settings[name] = env[name].strip().lower() in {"1", "true", "yes", "on"}
    settings.update(overrides or {})
    _fill_secrets(settings, Path(instance_path))
    settings.setdefault(
        "DATABASE_URL", f"sqlite:///{Path(instance_path) / 'pass_service.sqlite3'}"
    )
    if settings["APP_ENV"] == "production":
        _check_production(settings)
    settings["BASE_URL"] = str(settings["BASE_URL"] or served_url(
        str(settings["HOST"]), int(settings["PORT"]))).rstrip("/")
    settings["ENCRYPTION_KEYS"] = [
        k.strip() for k in str(settings["ENCRYPTION_KEYS"]).split(",") if k.strip()
    ]
    return settings


def served_url(host: str, port: int) -> str:
    """The URL a browser on this machine reaches `flask run --host HOST --port PORT` at."""
    if host in {"", "0.0.0.0", "::"}:  # noqa: S104 (every interface: one of them is this machine's)
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def _check_production(settings: dict[str, Any]) -> None:
    """What several machines need, refused early rather than found out later.

    :raises ConfigError: no BASE_URL, or SQLite without ALLOW_SQLITE_IN_PRODUCTION.
    """
    if not settings.get("BASE_URL"):
        raise ConfigError("APP_ENV=production needs BASE_URL, the address holders and wallets "
                          "reach the service at (https://passes.example.com): links, pass "
                          "files and webhooks are built from it")
    if settings["PASSWORD_HASH_METHOD"] != DEFAULTS["PASSWORD_HASH_METHOD"]:
        raise ConfigError("APP_ENV=production hashes dashboard passwords with scrypt: unset "
                          "PASSWORD_HASH_METHOD")
    if str(settings["DATABASE_URL"]).startswith("sqlite") and \
            not settings["ALLOW_SQLITE_IN_PRODUCTION"]:
        raise ConfigError("APP_ENV=production refuses SQLite: its database is a file on this "
                          "machine, which another node cannot share. Set DATABASE_URL to "
                          "PostgreSQL (postgresql+psycopg://...), or ALLOW_SQLITE_IN_PRODUCTION=1 "
                          "to run on this one machine")


def _fill_secrets(settings: dict[str, Any], instance: Path) -> None:
    """Require the secrets in production; elsewhere generate and keep them."""
    missing = [n for n in ("SECRET_KEY", "ENCRYPTION_KEYS") if not settings.get(n)]
    if not missing:
        return
    if settings["APP_ENV"] == "production":
        raise ConfigError(f"APP_ENV=production needs {' and '.join(missing)} in the environment")
    stored = _dev_secrets(instance)
    for name in missing:
        settings[name] = stored[name]
    settings["SECRETS_GENERATED"] = True


def _dev_secrets(instance: Path) -> dict[str, str]:
    path = instance / "secrets.json"
    if path.exists():
        return json.loads(path.read_text())
    instance.mkdir(parents=True, exist_ok=True)
    values = {
        "SECRET_KEY": secrets.token_urlsafe(48),
        "ENCRYPTION_KEYS": base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
    }
    tmp = instance / f".secrets.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump(values, fh)
    try:
        os.link(tmp, path)  # atomic: fails if another process won the race
    except FileExistsError:
        values = json.loads(path.read_text())
    finally:
        tmp.unlink()
    return values
