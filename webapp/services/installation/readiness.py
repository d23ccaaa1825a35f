"""Whether this node can serve: the checks behind `GET /readyz`.

`database`: a statement answers. `migrations`: the database is at the code's head revision
(a node of a newer release waits for `flask db upgrade`; an older one, after it, sees a
revision it does not know and is not ready either). `redis`: answers a PING, checked only
when `REDIS_URL` is set. A check's answer is one word; no host, version or error text, which
the log has instead (at warning level, with the exception's type only).
"""

from __future__ import annotations

import functools
import logging

from alembic.script import ScriptDirectory
from sqlalchemy import text

from webapp.db.transaction import end_read
from webapp.extensions import db

log = logging.getLogger("webapp.readiness")
OK = "ok"
TIMEOUT = 1.0  # seconds a Redis check may take


def checks(migrations_dir: str, redis_url: str | None) -> dict[str, str]:
    """Each check's word: `ok`, else why not (`unreachable`, `behind`, `unknown_revision`).
    The migrations are not checked when the database is unreachable."""
    results = {"database": _database()}
    if results["database"] == OK:
        results["migrations"] = _migrations(migrations_dir)
    if redis_url:
        results["redis"] = _redis(redis_url)
    return results


def _database() -> str:
    try:
        db.session.execute(text("SELECT 1"))
    except Exception as exc:
        log.warning("readiness: the database did not answer (%s)", type(exc).__name__)
        _forget_connection()
        return "unreachable"
    return OK


def _migrations(migrations_dir: str) -> str:
    try:
        current = db.session.scalar(text("SELECT version_num FROM alembic_version"))
    except Exception as exc:  # no table: never migrated
        log.warning("readiness: no migration revision (%s)", type(exc).__name__)
        _forget_connection()
        return "behind"
    finally:
        end_read()
    heads = _heads(migrations_dir)
    if current in heads:
        return OK
    return "behind" if current is None or _known(migrations_dir, current) else "unknown_revision"


def _redis(url: str) -> str:
    from redis import Redis

    client = Redis.from_url(url, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT)
    try:
        client.ping()
    except Exception as exc:
        log.warning("readiness: Redis did not answer (%s)", type(exc).__name__)
        return "unreachable"
    finally:
        client.close()
    return OK


def _forget_connection() -> None:
    try:
        db.session.rollback()
    except Exception:  # the connection is gone: the pool replaces it
        db.session.close()


@functools.cache
def _script(migrations_dir: str) -> ScriptDirectory:
    return ScriptDirectory(migrations_dir)  # read once: the code's migrations do not change


def _heads(migrations_dir: str) -> tuple[str, ...]:
    return tuple(_script(migrations_dir).get_heads())


def _known(migrations_dir: str, revision: str) -> bool:
    try:
        return _script(migrations_dir).get_revision(revision) is not None
    except Exception:  # alembic: no such revision
        return False
