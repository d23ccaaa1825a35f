"""`with transaction():` one unit of work: commit on success, roll back on any error.

On SQLite a write transaction starts with BEGIN IMMEDIATE (see `sqlite_begin`), so two
writers queue on the database lock instead of failing with SQLITE_BUSY when one of them
upgrades a read snapshot that the other has made stale. Before that, writers of every
process and thread queue on an `flock` of a file beside the database (`writers_queue`):
the kernel wakes the next writer the moment the lock is free, where SQLite's busy handler
sleeps 1, 2, 5, 10, ... ms between tries (most of an issue's time under load).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

try:
    import fcntl
except ImportError:  # pragma: no cover (not POSIX: SQLite's own busy handler only)
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from webapp.extensions import db

IMMEDIATE = "sqlite_immediate"


@contextmanager
def transaction() -> Iterator[Session]:
    """A write transaction on the request's session."""
    session = db.session()
    if session.in_transaction():
        session.commit()  # end a read snapshot; services leave nothing pending outside here
    with writers_queue():
        session.connection(execution_options={IMMEDIATE: True})
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            session.info.pop("outbox", None)  # work recorded by this unit did not happen
            raise


@contextmanager
def core_transaction() -> Iterator[Connection]:
    """A short write transaction on a connection of its own, without the ORM session: for
    hot paths of a single statement or two (idempotency claims)."""
    with writers_queue(), db.engine.connect() as conn:
        conn.execution_options(**{IMMEDIATE: True})
        with conn.begin():
            yield conn


_held = threading.local()
_lock_paths: dict[str, str | None] = {}


@contextmanager
def writers_queue() -> Iterator[None]:
    """Hold the writers' lock of a SQLite database file for one write transaction (a no-op
    on PostgreSQL and in-memory databases; re-entrant within a thread)."""
    depth = getattr(_held, "depth", 0)
    path = _lock_path() if depth == 0 and fcntl is not None else None
    fd = None
    if path is not None:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
    _held.depth = depth + 1
    try:
        yield
    finally:
        _held.depth = depth
        if fd is not None:
            os.close(fd)  # releases the lock


def _lock_path() -> str | None:
    url = db.engine.url
    key = str(url)
    if key not in _lock_paths:
        database = url.database or ""
        file_db = url.get_backend_name() == "sqlite" and database not in ("", ":memory:") \
            and "mode=memory" not in key
        _lock_paths[key] = f"{database}-writers.lock" if file_db else None
    return _lock_paths[key]


def end_read() -> None:
    """End a read-only unit so its snapshot and connection are released."""
    db.session.rollback()


def sqlite_begin(engine: Engine) -> None:
    """Take over BEGIN on a SQLite engine: WAL, foreign keys, a busy timeout, IMMEDIATE writes."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):  # type: ignore[no-untyped-def]
        immediate = conn.get_execution_options().get(IMMEDIATE)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
