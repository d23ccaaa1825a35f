"""SQLite's WAL is copied back by the checkpointer thread, not by the commits of requests
(webapp/db/sqlite.py: `sqlite_begin`, `checkpoints`)."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from webapp.db import sqlite


def _engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}")
    sqlite.set_up(engine)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (n INTEGER)"))
    return engine


def _write(engine: Engine, commits: int) -> None:
    for n in range(commits):
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (:n)"), {"n": n})


@pytest.fixture
def checkpoints(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The databases the checkpointer copied back, in order."""
    done: list[str] = []
    original = sqlite._Checkpointer.checkpoint

    def recorded(engine: Engine) -> None:
        original(engine)
        done.append(str(engine.url.database))

    monkeypatch.setattr(sqlite._Checkpointer, "checkpoint", staticmethod(recorded))
    return done


def _wait_for(condition, seconds: float = 5.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_commits_leave_the_wal_to_the_checkpointer(tmp_path: Path,
                                                   checkpoints: list[str]) -> None:
    engine = _engine(tmp_path / "a.sqlite3")
    with engine.connect() as conn:  # a commit copies back only past the backstop
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == \
            sqlite.AUTOCHECKPOINT_BACKSTOP
    _write(engine, sqlite.CHECKPOINT_AFTER)
    assert _wait_for(lambda: str(tmp_path / "a.sqlite3") in checkpoints)

    def in_the_file() -> int:  # a reader that ignores the WAL (immutable)
        with sqlite3.connect(f"file:{tmp_path / 'a.sqlite3'}?immutable=1", uri=True) as raw:
            return raw.execute("SELECT count(*) FROM t").fetchone()[0]

    # What the commits wrote reaches the database file itself (the last commits may come
    # just after the checkpoint their count woke: the next one takes them).
    assert _wait_for(lambda: in_the_file() == sqlite.CHECKPOINT_AFTER,
                     seconds=sqlite.CHECKPOINT_IDLE * 4)
    engine.dispose()


def test_a_few_commits_are_checkpointed_when_the_writing_stops(
        tmp_path: Path, checkpoints: list[str]) -> None:
    engine = _engine(tmp_path / "b.sqlite3")
    _write(engine, 3)
    assert _wait_for(lambda: str(tmp_path / "b.sqlite3") in checkpoints,
                     seconds=sqlite.CHECKPOINT_IDLE * 4)
    engine.dispose()


def test_a_database_that_is_gone_does_not_stop_the_checkpointer(
        tmp_path: Path, checkpoints: list[str]) -> None:
    (tmp_path / "gone").mkdir()
    gone = _engine(tmp_path / "gone" / "c.sqlite3")
    _write(gone, 2)
    gone.dispose()
    shutil.rmtree(tmp_path / "gone")
    kept = _engine(tmp_path / "d.sqlite3")
    _write(kept, 2)
    assert _wait_for(lambda: str(tmp_path / "d.sqlite3") in checkpoints,
                     seconds=sqlite.CHECKPOINT_IDLE * 4)
    assert not (tmp_path / "gone").exists()  # not made again by a checkpoint
    assert any(t.name == "sqlite-checkpoints" and t.is_alive() for t in threading.enumerate())
    kept.dispose()


def test_in_memory_databases_have_no_checkpointer(checkpoints: list[str]) -> None:
    engine = create_engine("sqlite://")
    sqlite.set_up(engine)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (n INTEGER)"))
    _write(engine, sqlite.CHECKPOINT_AFTER)
    time.sleep(0.2)
    assert checkpoints == []


def test_a_file_database_is_read_through_a_memory_map(tmp_path: Path) -> None:
    """A scan that reads thousands of rows at random (a search with a filter, at a million
    passes) took 2.4x as long through read() into each connection's small page cache."""
    engine = _engine(tmp_path / "m.sqlite3")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA mmap_size").scalar() == sqlite.MMAP_SIZE == 1 << 30
