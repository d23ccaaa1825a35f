"""`with transaction() as session:` the one way to write.

The outermost block is the request's write transaction: it begins (on SQLite with
`BEGIN IMMEDIATE`, in the writers' queue), commits when the block ends and rolls back when it
raises. A block inside it is a SAVEPOINT: an error undoes that block's writes and the outer
block decides what follows (an API error is answered and stored with the key's claim).

Jobs recorded with `enqueue_after_commit` start only once the outermost block has committed,
and are dropped with the writes they belong to; so are the counts of `count_after_commit`
(metrics say what was committed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from functools import cache
from typing import Any, cast

from flask import current_app
from sqlalchemy import CursorResult, Insert, Table, event, insert
from sqlalchemy.orm import ORMExecuteState, Session
from sqlalchemy.sql.expression import Executable

from webapp.db import sqlite
from webapp.extensions import db

Dispatcher = Callable[..., None]
DISPATCHER = "job_dispatcher"  # app.extensions key: dispatcher(task name, *row IDs)
_OPEN = "transaction_open"
_JOBS = "jobs_after_commit"
_COUNTS = "counts_after_commit"


@contextmanager
def transaction() -> Iterator[Session]:
    """A write transaction, or a SAVEPOINT inside one."""
    session = db.session()
    if session.info.get(_OPEN):
        with _savepoint(session):
            yield session
        return
    if session.new or session.dirty or session.deleted:
        raise RuntimeError("changes were made outside `with transaction()`")
    if session.in_transaction():
        # End the read snapshot, so the writer starts from the newest data; a rollback, so
        # nothing a read left on the connection is committed with the writes.
        session.rollback()
    on_sqlite = sqlite.is_sqlite(session)
    with sqlite.writers_queue() if on_sqlite else nullcontext():
        session.connection(execution_options={sqlite.IMMEDIATE: True})
        session.info[_OPEN] = True
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            session.info.pop(_JOBS, None)
            session.info.pop(_COUNTS, None)
            raise
        finally:
            session.info.pop(_OPEN, None)
    for count in session.info.pop(_COUNTS, ()):
        count()
    dispatch(session)


@contextmanager
def _savepoint(session: Session) -> Iterator[None]:
    jobs = session.info.setdefault(_JOBS, [])
    counts = session.info.setdefault(_COUNTS, [])
    before, counted = len(jobs), len(counts)
    with session.begin_nested():
        try:
            yield
        except BaseException:
            del jobs[before:]
            del counts[counted:]
            raise


def refuse_writes_outside_transactions() -> None:
    """Make a flush or a writing statement outside `transaction()` raise on the app's session:
    a change left on it would otherwise ride along with the next transaction's commit."""
    if not event.contains(db.session, "before_flush", _refuse_flush):
        event.listen(db.session, "before_flush", _refuse_flush)
        event.listen(db.session, "do_orm_execute", _refuse_write)


def _refuse_flush(session: Session, *_: Any) -> None:
    if not session.info.get(_OPEN):
        raise RuntimeError("changes were made outside `with transaction()`")


def _refuse_write(state: ORMExecuteState) -> None:
    if (state.is_insert or state.is_update or state.is_delete) and \
            not state.session.info.get(_OPEN):
        raise RuntimeError("a write was made outside `with transaction()`")


def in_transaction() -> bool:
    """Whether a `transaction()` block is open on this request's session."""
    return bool(db.session().info.get(_OPEN))


def enqueue_after_commit(session: Session, task: str, *row_ids: str) -> None:
    """Run job `task` for the rows once the transaction that wrote them commits."""
    session.info.setdefault(_JOBS, []).append((task, *row_ids))


def count_after_commit(session: Session, count: Callable[[], None]) -> None:
    """Call `count` (a metric's increment) once the transaction commits."""
    session.info.setdefault(_COUNTS, []).append(count)


def dispatch(session: Session | None = None) -> None:
    """Hand the recorded jobs to the app's queue (after a commit; the sweep calls it itself)."""
    session = session or db.session()
    jobs = session.info.pop(_JOBS, None)
    dispatcher: Dispatcher | None = current_app.extensions.get(DISPATCHER)
    if jobs and dispatcher is not None:
        for task, *row_ids in jobs:
            dispatcher(task, *row_ids)


def changed_rows(session: Session, statement: Executable) -> int:
    """Run an UPDATE or DELETE; how many rows it changed."""
    result = cast(CursorResult[Any], session.execute(statement))
    return result.rowcount


def insert_new(session: Session, row: Any) -> None:
    """INSERT a new model object with one Core statement; it stays out of the session.

    For rows that the request writes once and never changes (a new pass, its Google row):
    no flush, no change tracking, and on the session's connection (the ORM's `execute` adds
    some 30 us to a Core statement). Columns the object leaves unset get their defaults.
    """
    insert_all(session, [row])


def insert_all(session: Session, rows: list[Any]) -> None:
    """`insert_new` for several new objects of one model: one executemany per set of
    columns the objects set."""
    if not rows:
        return
    table = cast(Table, type(rows[0]).__table__)
    shapes: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in rows:
        values = {column.key: row.__dict__[column.key] for column in table.columns
                  if column.key in row.__dict__}
        shapes.setdefault(tuple(values), []).append(values)
    connection = session.connection()
    for params in shapes.values():
        connection.execute(_insert(table), params)


@cache
def _insert(table: Table) -> Insert:
    """The table's INSERT, built once: a statement's cache key is computed once per object,
    and a new one per call cost more than running it on SQLite."""
    return insert(table)


def end_read() -> None:
    """Release the read snapshot and connection a session holds (not inside a transaction)."""
    if not in_transaction():
        db.session.rollback()
