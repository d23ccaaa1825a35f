"""`with transaction():` one unit of work: commit on success, roll back on any error.

On SQLite a write transaction starts with BEGIN IMMEDIATE (see `sqlite_begin`), so two
writers queue on the database lock instead of failing with SQLITE_BUSY when one of them
upgrades a read snapshot that the other has made stale.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

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
    with db.engine.connect() as conn:
        conn.execution_options(**{IMMEDIATE: True})
        with conn.begin():
            yield conn


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
