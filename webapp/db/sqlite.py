"""SQLite set-up: PRAGMAs, `BEGIN IMMEDIATE` for writes, the writers' queue, held keys and the
WAL checkpointer. PostgreSQL needs none of it.

Writers of every process and thread queue on an `flock` of a file beside the database: the
kernel wakes the next writer the moment the lock is free, where SQLite's busy handler sleeps
1, 2, 5, 10, ... ms between tries (this doubled write throughput under load).
"""

from __future__ import annotations

import hashlib
import logging
import os
import struct
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover (not POSIX: SQLite's own busy handler only)
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from webapp.extensions import db

IMMEDIATE = "sqlite_immediate"  # execution option: the transaction begins IMMEDIATE
_log = logging.getLogger("webapp.sqlite")


def is_sqlite(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


def database_file(engine: Engine | None = None) -> str | None:
    """The SQLite database file of `engine` (the app's by default); None for PostgreSQL and
    in-memory databases."""
    url = (engine or db.engine).url
    name = url.database or ""
    if url.get_backend_name() != "sqlite" or name in ("", ":memory:") or \
            "mode=memory" in str(url):
        return None
    return name


_held = threading.local()


@contextmanager
def writers_queue() -> Iterator[None]:
    """Hold the writers' lock of the app's SQLite database file (re-entrant in a thread)."""
    depth = getattr(_held, "depth", 0)
    path = database_file() if depth == 0 and fcntl is not None else None
    fd = os.open(f"{path}-writers.lock", os.O_RDWR | os.O_CREAT, 0o600) if path else None
    if fd is not None:
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
    """Hold `name` without waiting, across processes and threads, until the returned release
    is called; None where SQLite is not used (PostgreSQL has advisory locks).

    Writers queue one at a time, so without this a request would wait behind the one that
    holds its Idempotency-Key instead of learning that it still runs. An open file
    description lock on one byte, at an offset drawn from the name; it goes with its
    descriptor, also when the process dies.

    :raises KeyBusy: another request holds it.
    """
    path = database_file()
    if path is None or _OFD is None or struct.calcsize("P") != 8:
        return None
    offset = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") >> 2
    fd = os.open(f"{path}-keys.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.fcntl(fd, _OFD, struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, offset, 1, 0))
    except OSError:
        os.close(fd)
        raise KeyBusy(name) from None
    return lambda: os.close(fd)


def set_up(engine: Engine) -> None:
    """WAL, foreign keys, a busy timeout, and BEGIN IMMEDIATE for writes; a file database's
    WAL is copied back by the checkpointer thread, not by commits."""
    file_db = database_file(engine) is not None

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        if file_db:
            cursor.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_BACKSTOP}")
            cursor.execute(f"PRAGMA mmap_size={MMAP_SIZE}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        immediate = conn.get_execution_options().get(IMMEDIATE)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    if file_db:
        @event.listens_for(engine, "commit")
        def _committed(conn: Any) -> None:
            checkpoints.written(engine)


# A commit that finds the WAL past `wal_autocheckpoint` pages copies it back there and then,
# fsyncs included, while every writer waits (one commit in 50 took 6-80 ms). The checkpointer
# does it beside them; the backstop bounds the WAL of a process without one (a CLI import).
AUTOCHECKPOINT_BACKSTOP = 20000  # pages (80 MB of WAL at 4 KiB pages)
# Reads of the first GiB of the file go through a shared memory map instead of a read()
# into each connection's 2 MB page cache: a scan of a million passes that reads thousands
# of rows at random (a search with a filter) took 2.4x as long through read() (issue 34).
# Writes still go through write(); the map is address space, not memory of its own.
MMAP_SIZE = 1 << 30
CHECKPOINT_AFTER = 40  # commits (an issued pass writes some 18 pages)
CHECKPOINT_IDLE = 1.0  # seconds: fewer commits than that are checkpointed this often


class _Checkpointer:
    """One daemon thread per process: a PASSIVE checkpoint (it waits for nobody) of each file
    database written to since its last one."""

    def __init__(self) -> None:
        self._pending: weakref.WeakKeyDictionary[Engine, int] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._pid: int | None = None

    def written(self, engine: Engine) -> None:
        """A transaction of `engine` committed."""
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
                connection.driver_connection.execute(  # type: ignore[union-attr]
                    "PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                connection.close()
        except Exception:  # a database gone with its test, a disk error: the next one tries
            _log.debug("checkpoint failed", exc_info=True)


checkpoints = _Checkpointer()
