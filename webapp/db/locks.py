"""`only_one(name)`: work that one process of the installation does at a time (the sweep).

Whoever holds the lock does the work; anyone else asking meanwhile is told no at once and
skips it. On PostgreSQL a session advisory lock on a connection of its own (every node
shares the database); on SQLite a lock beside the database file (every process of the
machine shares it). Either goes with its holder, also when the process dies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import func, select

from webapp.db import sqlite
from webapp.extensions import db


@contextmanager
def only_one(name: str) -> Iterator[bool]:
    """Hold the installation-wide lock `name` for the block, without waiting; yields whether
    this process got it."""
    if db.engine.dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(f"lock:{name}".encode()).digest()[:8], "big",
                             signed=True)
        with db.engine.connect() as connection:
            held = bool(connection.scalar(select(func.pg_try_advisory_lock(key))))
            connection.commit()  # the lock is the session's: no transaction stays open
            try:
                yield held
            finally:
                if held:
                    connection.scalar(select(func.pg_advisory_unlock(key)))
                    connection.commit()
        return
    try:
        release = sqlite.hold_key(f"lock:{name}")
    except sqlite.KeyBusy:
        yield False
        return
    try:
        yield True
    finally:
        if release is not None:
            release()
