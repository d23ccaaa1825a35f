"""Rate-limit counters shared by every process of this machine, when there is no Redis; and
what happens when the counters cannot be reached.

Flask-Limiter's fixed windows are counted in a small SQLite file of their own
(`instance/ratelimits.sqlite` unless `RATE_LIMIT_FILE` says otherwise): two gunicorn workers
draw on one allowance instead of one each. It is not the app's database, so a hit never
waits behind the app's writers' lock. The counters are throw-away: WAL, `synchronous=OFF`.
Expired rows are deleted inline, at most once a second per process.

When the counters' storage (Redis, or this file) stops answering, Flask-Limiter counts in the
process's memory until it answers again (`RATELIMIT_IN_MEMORY_FALLBACK_ENABLED`), so an outage
never turns a request into an error; `OutageLog` keeps what it logs about it to a line a
minute.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from limits.storage import Storage

from webapp import metrics

SCHEME = "sqlite-counters"
SWEEP_EVERY = 1.0  # seconds between two deletions of expired rows by one process

_SCHEMA = ("CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, "
           "count INTEGER NOT NULL, expires_at REAL NOT NULL) WITHOUT ROWID")
# One atomic statement: a new key, a live window counted on, or an expired one begun again.
_INCR = ("INSERT INTO counters (key, count, expires_at) VALUES (:key, :amount, :now + :expiry) "
         "ON CONFLICT (key) DO UPDATE SET "
         "count = CASE WHEN expires_at > :now THEN count + :amount ELSE :amount END, "
         "expires_at = CASE WHEN expires_at > :now THEN expires_at ELSE :now + :expiry END "
         "RETURNING count")
_GET = "SELECT count, expires_at FROM counters WHERE key = ? AND expires_at > ?"
_SWEEP = "DELETE FROM counters WHERE expires_at <= ?"


def uri(path: str | Path) -> str:
    """The storage URI of the counters file at `path`."""
    return f"{SCHEME}://{Path(path).resolve()}"


class SQLiteStorage(Storage):
    """limits' storage for the fixed-window strategy, in one SQLite file."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = Path(urlparse(uri).path)
        self._lock = threading.Lock()  # one connection per process, one statement at a time
        self._connection: sqlite3.Connection | None = None
        self._pid = 0
        self._next_sweep = 0.0

    @property
    def base_exceptions(self) -> tuple[type[Exception], ...]:
        return sqlite3.Error, OSError  # OSError: the folder cannot be made

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Count `amount` hits on `key`; a new window lasts `expiry` seconds."""
        now = time.time()
        with self._lock:
            db = self._db()
            if time.monotonic() >= self._next_sweep:
                self._next_sweep = time.monotonic() + SWEEP_EVERY
                db.execute(_SWEEP, (now,))
            row = db.execute(_INCR, {"key": key, "amount": amount, "now": now,
                                     "expiry": expiry}).fetchone()
        return int(row[0])

    def get(self, key: str) -> int:
        """The hits counted in the key's live window (0 without one)."""
        row = self._get(key)
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        """When the key's window ends (epoch seconds; now without one)."""
        row = self._get(key)
        return float(row[1]) if row else time.time()

    def check(self) -> bool:
        """Whether the file answers."""
        try:
            with self._lock:
                self._db().execute("SELECT 1").fetchone()
        except self.base_exceptions:
            return False
        return True

    def reset(self) -> int | None:
        """Forget every counter; returns how many there were."""
        with self._lock:
            return self._db().execute("DELETE FROM counters").rowcount

    def clear(self, key: str) -> None:
        """Forget one key's counter."""
        with self._lock:
            self._db().execute("DELETE FROM counters WHERE key = ?", (key,))

    def _get(self, key: str) -> tuple[int, float] | None:
        with self._lock:
            return self._db().execute(_GET, (key, time.time())).fetchone()

    def _db(self) -> sqlite3.Connection:
        """This process's connection: a forked worker opens its own, never its parent's."""
        if self._connection is None or self._pid != os.getpid():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=5, isolation_level=None,
                                 check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=OFF")
            db.execute(_SCHEMA)
            self._connection, self._pid = db, os.getpid()
        return self._connection


class OutageLog(logging.Filter):
    """Lets through at most one warning or error a minute from Flask-Limiter's logger (it
    says so each time the storage is found dead, or a request's headers cannot be counted),
    and counts each of them (`pass_service_ratelimit_storage_errors_total`)."""

    EVERY = 60.0

    def __init__(self, storage: str) -> None:
        super().__init__()
        self.storage = storage
        self._next = 0.0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        metrics.RATELIMIT_STORAGE_ERRORS.labels(self.storage).inc()
        with self._lock:
            if time.monotonic() < self._next:
                return False
            self._next = time.monotonic() + self.EVERY
        return True


def log_outages_once_a_minute(storage: str) -> None:
    """Attach one `OutageLog` to Flask-Limiter's logger (once per process); `storage`
    (`redis` or `file`) labels its count."""
    logger = logging.getLogger("flask-limiter")
    if not any(isinstance(f, OutageLog) for f in logger.filters):
        logger.addFilter(OutageLog(storage))
