"""`with transaction():` one unit of work: commit on success, roll back on any error.

On SQLite a write transaction starts with BEGIN IMMEDIATE (see `sqlite_begin`), so two
writers queue on the database lock instead of failing with SQLITE_BUSY when one of them
upgrades a read snapshot that the other has made stale. Before that, writers of every
process and thread queue on an `flock` of a file beside the database (`writers_queue`):
the kernel wakes the next writer the moment the lock is free, where SQLite's busy handler
sleeps 1, 2, 5, 10, ... ms between tries (most of an issue's time under load).

A request's *unit* (`start_unit`, used by the Idempotency-Key wrapper) keeps the first write
transaction of a request open until `finish_unit`: the services' `with transaction():`
blocks join it, the unit's opening statements (the key's claim) run as its first ones, and
the request's answer is stored in the same commit as the change it reports. Until then,
work recorded for the job queue waits (`unit_open`).

A unit's *deferrable* blocks (`transaction(deferrable=True)`: blocks that only add rows)
do not open it: their rows are kept (`defer`, used by `_rows`) and written when the unit
opens, at the latest at `finish_unit`. On SQLite, where writers take turns, they so run
without the writers' lock, in the request's read snapshot, and the reads the rows rest on
(`guard`) are made again under the lock before they are written. If one reads otherwise,
or a kept row no longer fits (a foreign key gone), the unit is `Stale`: it is rolled back
and the request runs again with its writes in place. So the lock is held for the INSERTs
and the commit, not for building the rows and the answer.

PostgreSQL has no such lock, but keeping the rows still saves round trips (the key's
claim is written with its answer, not claimed first and completed last; the rows and the
COMMIT then go in one round trip, `_sql.run_all`) and holds row and key locks only for the
commit. Its reads are not guarded: read committed, as a write
transaction there reads too, a change that commits meanwhile comes after the request
(it sees none of the request's rows), and a row that no longer fits still makes it stale.
"""

from __future__ import annotations

import hashlib
import logging
import os
import struct
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover (not POSIX: SQLite's own busy handler only)
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from webapp.extensions import db
from webapp.services._sql import Prepared, run_all

IMMEDIATE = "sqlite_immediate"
_UNIT = "unit"
_OUTBOX = "outbox"  # outbox.py's key: work recorded by the transaction, dispatched after it


@contextmanager
def transaction(*, deferrable: bool = False) -> Iterator[Session]:
    """A write transaction on the request's session (the unit's, when one is started).

    `deferrable`: the block only adds rows (`_rows.write`, `_rows.insert(track=False)`)
    and names the reads they rest on (`guard`); in a unit they are written at the unit's
    opening (see the module's notes).
    """
    session = db.session()
    unit = session.info.get(_UNIT)
    if unit is not None:
        if deferrable and not unit.open and not unit.in_place:
            yield from _deferred(session, unit)
        else:
            yield from _joined(session, unit)
        return
    if session.in_transaction():
        session.commit()  # end a read snapshot; services leave nothing pending outside here
    with writers_queue():
        session.connection(execution_options={IMMEDIATE: True})
        try:
            yield session
            session.commit()
        except BaseException:
            _rollback(session)
            raise


def _rollback(session: Session) -> None:
    """Roll back; the work the transaction recorded for the queue did not happen."""
    session.rollback()
    session.info.pop(_OUTBOX, None)


class Stale(Exception):
    """A unit's deferred rows rest on reads that changed before they could be written; the
    unit was rolled back and runs again with its writes in place (the request runs again)."""


@dataclass
class _Unit:
    opening: Callable[[Session], None]
    lock: ExitStack = field(default_factory=ExitStack)
    open: bool = False
    in_place: bool = False  # no deferring (after `Stale`)
    deferring: bool = False  # inside a deferrable block
    rows: list[tuple[Prepared, dict[str, Any]]] = field(default_factory=list)
    guards: list[tuple[Prepared, dict[str, Any], list[tuple[Any, ...]]]] = field(
        default_factory=list)


def start_unit(opening: Callable[[Session], None]) -> None:
    """Keep this request's first write transaction open until `finish_unit`;
    `opening(session)` runs first in it (it may raise: the transaction is then undone)."""
    db.session().info[_UNIT] = _Unit(opening)


def unit_open() -> bool:
    """Whether this request's unit has writes still to commit (in its open transaction, or
    deferred to its opening)."""
    unit = db.session().info.get(_UNIT)
    return unit is not None and (unit.open or bool(unit.rows))


def finish_unit(closing: Callable[[Session], None],
                whole: Callable[[Session], None] | None = None) -> bool:
    """Run `closing(session)` in the unit's write transaction and commit it; when only
    deferred rows wait for it, the transaction opens now, with `whole(session)` (if given)
    as its opening and closing both. False (nothing done) when the unit wrote nothing. The
    unit ends, unless it turns out `Stale` (it then runs again in place).

    :raises Stale: deferred rows rest on reads that changed.
    """
    session = db.session()
    unit = session.info.get(_UNIT)
    if unit is not None and not unit.open and unit.rows:
        _open(session, unit, whole, commit=whole is not None)
        if whole is not None:
            closing = _nothing
    session.info.pop(_UNIT, None)
    if unit is None or not unit.open:
        return False
    try:
        closing(session)
        session.commit()  # the unit is off the session: after-commit hooks dispatch
    except BaseException:
        _undo(session, unit)
        raise
    unit.lock.close()
    return True


def _nothing(_session: Session) -> None:
    """Closing a unit whose opening did it all."""


def abandon_unit() -> None:
    """End the unit: roll back its write transaction if it is open (a failed request)."""
    session = db.session()
    unit = session.info.pop(_UNIT, None)
    if unit is not None:
        _undo(session, unit)


def deferring(session: Session) -> bool:
    """Whether a deferrable block keeps its rows for the unit's opening now (the unit is
    not open yet: once open, for instance by a write in place, rows are written at once)."""
    unit = session.info.get(_UNIT)
    return unit is not None and unit.deferring and not unit.open


def defer(session: Session, statement: Prepared, params: dict[str, Any]) -> None:
    """Keep an INSERT for the unit's opening (while `deferring`)."""
    session.info[_UNIT].rows.append((statement, params))


def guard(session: Session, statement: Prepared, params: dict[str, Any],
          seen: Iterable[Sequence[Any]]) -> None:
    """The rows a deferrable block keeps rest on `statement` reading `seen`: it is read
    again under the writers' lock before they are written, and any other answer makes the
    unit `Stale`. Elsewhere nothing: the reads were made under the lock already."""
    if not deferring(session) or not _snapshots():
        return  # (PostgreSQL: see the module's notes)
    session.info[_UNIT].guards.append((statement, params, [tuple(row) for row in seen]))


def _deferred(session: Session, unit: _Unit) -> Iterator[Session]:
    unit.deferring = True
    try:
        yield session
    except BaseException:
        _undo(session, unit)  # as for a joined block: the whole unit
        raise
    finally:
        unit.deferring = False


def _joined(session: Session, unit: _Unit) -> Iterator[Session]:
    if not unit.open:
        _open(session, unit)
    try:
        yield session
        session.flush()
    except BaseException:
        _undo(session, unit)  # the whole unit: a later `transaction()` opens it again
        raise


def _open(session: Session, unit: _Unit, opening: Callable[[Session], None] | None = None,
          *, commit: bool = False) -> None:
    """Begin the unit's write transaction: its opening (or `opening`), then the rows it
    deferred; `commit`: nothing else comes, and on PostgreSQL the COMMIT goes with the
    rows in one round trip (the session's commit that follows finds the transaction done,
    and runs its hooks).

    :raises Stale: a guarded read reads otherwise now, or a deferred row does not fit.
    """
    # PostgreSQL goes on in the transaction of the request's reads (read committed).
    # SQLite ends the read snapshot first (BEGIN IMMEDIATE must start afresh), on the
    # driver: the session's transaction and connection go on, what the session holds
    # stays as it is (as after a commit: `expire_on_commit` is off, see extensions.py).
    reading, sqlite = session.in_transaction(), _snapshots()
    restart = reading and sqlite
    if restart:
        connection = session.connection()
        _COMMIT.run(connection, {})
    unit.lock.enter_context(writers_queue())
    unit.open = True
    try:
        if restart:
            _BEGIN_IMMEDIATE.run(connection, {})
        else:
            connection = session.connection(
                execution_options=None if reading else {IMMEDIATE: True})
        (opening or unit.opening)(session)
        for statement, params, seen in unit.guards:
            if [tuple(row) for row in statement.run(connection, params)] != seen:
                raise Stale
        batch = unit.rows
        if commit and not sqlite and not (session.new or session.dirty or session.deleted):
            batch = [*batch, (_COMMIT, {})]
        try:
            run_all(connection, batch)  # PostgreSQL: in one round trip
        except IntegrityError as exc:  # e.g. a row it refers to was deleted meanwhile
            raise Stale from exc
        unit.rows.clear()
        unit.guards.clear()
    except Stale:
        _undo(session, unit)
        unit.in_place = True
        raise
    except BaseException:
        _undo(session, unit)
        raise


_COMMIT = Prepared(text("COMMIT"))
_BEGIN_IMMEDIATE = Prepared(text("BEGIN IMMEDIATE"))


def _undo(session: Session, unit: _Unit) -> None:
    unit.open = False
    unit.rows.clear()
    unit.guards.clear()
    try:
        _rollback(session)
    finally:
        unit.lock.close()


_held = threading.local()
_database_files: dict[str, str | None] = {}


@contextmanager
def writers_queue() -> Iterator[None]:
    """Hold the writers' lock of a SQLite database file for one write transaction (a no-op
    on PostgreSQL and in-memory databases; re-entrant within a thread)."""
    depth = getattr(_held, "depth", 0)
    database = _database_file() if depth == 0 and fcntl is not None else None
    path = f"{database}-writers.lock" if database else None
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


class KeyBusy(Exception):
    """Another request holds this key (`hold_key`)."""


_OFD = getattr(fcntl, "F_OFD_SETLK", None) if fcntl is not None else None
_FLOCK = "@hhqqi4x"  # struct flock on 64-bit Linux: type, whence, start, len, pid (0 for OFD)


def hold_key(name: str) -> Callable[[], None] | None:
    """Hold `name` (an idempotency key's scope) for this request without waiting, across
    processes and threads; its release, or None where it is not needed.

    SQLite file databases only: their writers queue one at a time, so a request would wait
    behind the one that holds its key instead of learning that it is still running.
    (PostgreSQL's claim takes an advisory lock in the same statement instead.) An open
    file description lock on one byte of a file beside the database, at an offset drawn
    from the name; closing the descriptor releases it, also when the process dies.

    :raises KeyBusy: another request holds it.
    """
    database = _database_file()
    if database is None or _OFD is None or struct.calcsize("P") != 8:
        return None
    offset = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") >> 2
    fd = os.open(f"{database}-keys.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.fcntl(fd, _OFD, struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, offset, 1, 0))
    except OSError:
        os.close(fd)
        raise KeyBusy(name) from None
    return lambda: os.close(fd)


def _database_file(engine: Engine | None = None) -> str | None:
    """The SQLite database file of `engine` (the app's by default), or None (PostgreSQL,
    in-memory SQLite)."""
    url = (engine or db.engine).url
    key = str(url)
    if key not in _database_files:
        database = url.database or ""
        file_db = url.get_backend_name() == "sqlite" and database not in ("", ":memory:") \
            and "mode=memory" not in key
        _database_files[key] = database if file_db else None
    return _database_files[key]


def _snapshots() -> bool:
    """Whether a read transaction holds a snapshot that a write must not go on from
    (SQLite; PostgreSQL's read committed takes a fresh one for every statement)."""
    return db.engine.dialect.name == "sqlite"


def end_read() -> None:
    """End a read-only unit so its snapshot and connection are released (not a request
    unit's open write transaction)."""
    if not unit_open():
        db.session.rollback()


def sqlite_begin(engine: Engine) -> None:
    """Take over BEGIN on a SQLite engine: WAL, foreign keys, a busy timeout, IMMEDIATE
    writes; a file database's WAL is copied back by `checkpoints`, not by commits."""
    file_db = _database_file(engine) is not None

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        if file_db:
            cursor.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_BACKSTOP}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):  # type: ignore[no-untyped-def]
        immediate = conn.get_execution_options().get(IMMEDIATE)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    if file_db:
        @event.listens_for(engine, "commit")
        def _committed(conn):  # type: ignore[no-untyped-def]
            checkpoints.written(engine)


# A commit that finds the WAL past `wal_autocheckpoint` pages copies it back into the
# database there and then, fsyncs included, while it holds the writers' lock: every writer
# of every process waits (measured: commits p50 0.13 ms, one in 50 at 6-80 ms). The
# checkpointer does it beside them; the backstop only bounds the WAL of a process that
# writes without one running (a long CLI import).
AUTOCHECKPOINT_BACKSTOP = 20000  # pages (80 MB of WAL at 4 KiB pages)
CHECKPOINT_AFTER = 40  # commits (an issued pass writes some 18 pages)
CHECKPOINT_IDLE = 1.0  # seconds: fewer commits than that are checkpointed this often

_log = logging.getLogger("webapp.sqlite")


class _Checkpointer:
    """One daemon thread per process: a PASSIVE checkpoint of each SQLite file database
    written to since its last one (PASSIVE waits for no reader or writer; other processes'
    checkpointers and commits go on beside it)."""

    def __init__(self) -> None:
        self._pending: weakref.WeakKeyDictionary[Engine, int] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._pid: int | None = None

    def written(self, engine: Engine) -> None:
        """A transaction of `engine` committed (called by its commit event)."""
        with self._lock:
            count = self._pending.get(engine, 0) + 1
            self._pending[engine] = count
            if self._pid != os.getpid():  # first use in this process (or after a fork)
                self._pid = os.getpid()
                threading.Thread(target=self._run, name="sqlite-checkpoints",
                                 daemon=True).start()
        if count == CHECKPOINT_AFTER:
            self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait(CHECKPOINT_IDLE)
            self._wake.clear()
            with self._lock:
                due = [engine for engine, count in self._pending.items() if count]
                for engine in due:
                    self._pending[engine] = 0
            for engine in due:
                self.checkpoint(engine)
            del due

    @staticmethod
    def checkpoint(engine: Engine) -> None:
        """Copy what the WAL holds back into the database, as far as readers allow."""
        try:
            connection = engine.raw_connection()
            try:
                connection.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                connection.close()
        except Exception:  # a database gone with its test, a disk error: the next one tries
            _log.debug("checkpoint failed", exc_info=True)


checkpoints = _Checkpointer()
