"""The application factory: reads like a table of contents."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions, request logging, doors, errors, CLI."""
    from webapp import (
        cli,
        config,
        errorpages,
        extensions,
        metrics,
        monitoring,
        ratelimit_storage,
        security_headers,
    )
    from webapp import logging as request_logging
    from webapp.db import sqlite, transaction

    app = Flask(__name__, static_folder="static",
                instance_path=config.instance_path_from_env(_default_instance_path()),
                instance_relative_config=False)
    settings = config.load(app.instance_path, overrides)
    app.config.update(settings)
    app.config.update(
        SQLALCHEMY_DATABASE_URI=settings["DATABASE_URL"],
        SQLALCHEMY_ENGINE_OPTIONS=_engine_options(settings["DATABASE_URL"]),
        MAX_CONTENT_LENGTH=config.MAX_CONTENT_LENGTH,
        JSON_SORT_KEYS=False,
        # Without Redis, one counters file for every process of this machine.
        RATELIMIT_STORAGE_URI=settings["REDIS_URL"] or ratelimit_storage.uri(
            settings["RATE_LIMIT_FILE"] or f"{app.instance_path}/ratelimits.sqlite"),
        # The counters' storage down (Redis gone): count in memory meanwhile, never fail.
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        RATELIMIT_SWALLOW_ERRORS=True,
        RATELIMIT_STORAGE_OPTIONS={"socket_connect_timeout": 1, "socket_timeout": 1}
        if settings["REDIS_URL"] else {},
        RATELIMIT_HEADERS_ENABLED=True,
        RATELIMIT_HEADER_LIMIT="RateLimit-Limit",
        RATELIMIT_HEADER_REMAINING="RateLimit-Remaining",
        RATELIMIT_HEADER_RESET="RateLimit-Reset",
        RATELIMIT_HEADER_RETRY_AFTER="Retry-After",
        RATELIMIT_HEADER_RETRY_AFTER_VALUE="delta-seconds",
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    metrics.init()  # this process's counts go to the node's folder (a worker's already do)

    request_logging.init_app(app)  # first: every later hook and error sees the request ID
    extensions.db.init_app(app)
    transaction.refuse_writes_outside_transactions()
    extensions.migrate.init_app(app, extensions.db, render_as_batch=True,
                                directory=_migrations_dir())
    with app.app_context():
        if extensions.db.engine.dialect.name == "sqlite":
            sqlite.set_up(extensions.db.engine)

    from webapp import api, dashboard, distribution, i18n

    i18n.init_app(app)  # the language of pages people read, from Accept-Language
    api.init_app(app)
    distribution.init_app(app)
    dashboard.init_app(app)  # also binds Flask-Login and CSRF (opt-in: dashboard only)
    monitoring.init_app(app)  # /healthz, /readyz, /metrics; every request counted
    extensions.limiter.init_app(app)
    ratelimit_storage.log_outages_once_a_minute("redis" if settings["REDIS_URL"] else "file")
    errorpages.init_app(app)
    security_headers.init_app(app)  # CSP, nosniff, framing, referrer, no-store
    cli.init_app(app)
    _connect_jobs(app)
    _check_installation(app)
    return app


def _check_installation(app: Flask) -> None:
    """What every node must share, checked against the database at start.

    :raises ConfigError: this node's ENCRYPTION_KEYS cannot read the database's secrets.
    """
    import logging

    from webapp import config
    from webapp.services.installation import keys

    with app.app_context():
        problem = keys.keys_problem()
    if problem and app.config.get("SECRETS_GENERATED"):
        problem += (f" This node made up its own in {app.instance_path}/secrets.json: set "
                    "SECRET_KEY and ENCRYPTION_KEYS in the environment of every node.")
    if problem:
        raise config.ConfigError(problem)
    if app.config["APP_ENV"] == "production" and not app.config.get("REDIS_URL"):
        logging.getLogger("webapp").warning(
            "REDIS_URL is not set: jobs run inside each web process and rate limits are "
            "counted per machine; several machines need one Redis (docs/deploy.md).")


def _connect_jobs(app: Flask) -> None:
    """Services record work in the outbox; the job queue runs it after the commit."""
    from jobs import queue
    from webapp.db import transaction

    app.extensions[transaction.DISPATCHER] = queue.enqueue
    queue.init_app(app)  # in-process jobs: the periodic sweep runs in this process


def _default_instance_path() -> str:
    from pathlib import Path

    return str(Path(__file__).resolve().parent.parent / "instance")


def _migrations_dir() -> str:
    from pathlib import Path

    return str(Path(__file__).resolve().parent.parent / "migrations")


def _engine_options(url: str) -> dict[str, Any]:
    if url.startswith("sqlite"):
        return {"connect_args": {"timeout": 10, "check_same_thread": False}}
    return {"pool_pre_ping": True, "pool_size": 10, "max_overflow": 10}
