"""`webapp.db.transaction`: one write transaction, SAVEPOINTs inside it, jobs after the
commit; SQLite's writers queue on an flock beside the database (`webapp.db.sqlite`)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from webapp.db import sqlite
from webapp.db.transaction import DISPATCHER, enqueue_after_commit, transaction


def test_writers_of_two_threads_never_overlap(app, lock_path: Path) -> None:
    inside: list[int] = []
    overlaps: list[int] = []

    def writer(n: int) -> None:
        with app.app_context():
            for _ in range(20):
                with sqlite.writers_queue():
                    inside.append(n)
                    if len(inside) > 1:
                        overlaps.append(n)
                    time.sleep(0.001)
                    inside.remove(n)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert overlaps == []
    assert lock_path.exists() and lock_path.name.endswith("-writers.lock")


def test_another_process_waits_for_the_lock_and_nesting_is_reentrant(app, lock_path: Path
                                                                     ) -> None:
    probe = ("import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR); t = "
             "time.monotonic(); fcntl.flock(fd, fcntl.LOCK_EX); print(time.monotonic() - t)")
    with app.app_context(), sqlite.writers_queue():
        with sqlite.writers_queue():  # a nested unit in the same thread does not deadlock
            pass
        other = subprocess.Popen([sys.executable, "-c", probe, str(lock_path)],
                                 stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)
        assert other.poll() is None  # still waiting: the outer unit holds the lock
    waited = float(other.communicate(timeout=10)[0])
    assert waited >= 0.3


def test_a_write_transaction_holds_the_lock(app, lock_path: Path) -> None:
    import fcntl
    import os

    with app.app_context(), transaction():
        fd = os.open(lock_path, os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)


def test_a_held_key_is_busy_for_other_threads_and_processes_until_released(
        app, lock_path: Path) -> None:
    with app.app_context():
        release = sqlite.hold_key("org\x1ftest\x1fkey-1")
        assert release is not None
        try:
            seen: list[str] = []

            def other_thread() -> None:
                with app.app_context():
                    try:
                        sqlite.hold_key("org\x1ftest\x1fkey-1")
                        seen.append("taken")
                    except sqlite.KeyBusy:
                        seen.append("busy")
                    other = sqlite.hold_key("org\x1ftest\x1fkey-2")  # another key is free
                    assert other is not None
                    other()

            thread = threading.Thread(target=other_thread)
            thread.start()
            thread.join(10)
            assert seen == ["busy"]
            database = sqlite.database_file()
            probe = (
                "import sys; sys.path.insert(0, '.'); from webapp import create_app; "
                "from webapp.db import sqlite; app = create_app({'DATABASE_URL': "
                f"'sqlite:///{database}', 'SECRET_KEY': 'x', 'ENCRYPTION_KEYS': "
                "'dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktdGVzdDE='})\n"
                "with app.app_context():\n"
                "    try:\n        sqlite.hold_key('org\\x1ftest\\x1fkey-1'); print('taken')\n"
                "    except sqlite.KeyBusy:\n        print('busy')\n")
            out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                 timeout=60)
            assert out.stdout.strip() == "busy", out.stderr
        finally:
            release()
        again = sqlite.hold_key("org\x1ftest\x1fkey-1")
        assert again is not None
        again()


def _org(name: str):  # type: ignore[no-untyped-def]
    from webapp import clock, ids
    from webapp.models import Organization

    return Organization(id=ids.new_id("org"), name=name, created_at=clock.now())


def _names(*names: str) -> list[str]:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import Organization

    db.session.rollback()
    return sorted(db.session.scalars(select(Organization.name).where(
        Organization.name.in_(names))))


def test_a_block_commits_when_it_ends_and_rolls_back_when_it_raises(app) -> None:
    with app.app_context():
        with transaction() as session:
            session.add(_org("Kept"))
        with pytest.raises(RuntimeError), transaction() as session:
            session.add(_org("Undone"))
            session.flush()
            raise RuntimeError("boom")
        assert _names("Kept", "Undone") == ["Kept"]


def test_a_nested_block_is_a_savepoint(app) -> None:
    """An error inside undoes the inner block only; the outer block decides."""
    with app.app_context():
        with transaction() as session:
            session.add(_org("Outer"))
            with pytest.raises(RuntimeError), transaction() as inner:
                assert inner is session
                inner.add(_org("Inner"))
                inner.flush()
                raise RuntimeError("boom")
            with transaction() as inner:
                inner.add(_org("Second inner"))
        assert _names("Outer", "Inner", "Second inner") == ["Outer", "Second inner"]
        with pytest.raises(RuntimeError), transaction() as session:
            with transaction() as inner:
                inner.add(_org("Inner of a failed outer"))
            raise RuntimeError("boom")
        assert _names("Inner of a failed outer") == []


def test_changes_made_outside_a_transaction_are_refused(app) -> None:
    from webapp.extensions import db

    with app.app_context():
        db.session.add(_org("Outside"))
        with pytest.raises(RuntimeError, match="outside"), transaction():
            pass
        db.session.rollback()
        assert _names("Outside") == []


def test_a_change_flushed_by_a_query_outside_a_transaction_is_refused(app) -> None:
    """A query's autoflush must not smuggle a change into the next transaction's commit."""
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import Organization

    with app.app_context():
        db.session.add(_org("Flushed outside"))
        with pytest.raises(RuntimeError, match="outside"):
            db.session.scalars(select(Organization.id)).all()
        db.session.rollback()
        with transaction():
            pass
        assert _names("Flushed outside") == []


def test_a_statement_that_writes_outside_a_transaction_is_refused(app) -> None:
    from sqlalchemy import update

    from webapp.extensions import db
    from webapp.models import Organization

    with app.app_context():
        with transaction() as session:
            session.add(_org("Written inside"))
        with pytest.raises(RuntimeError, match="outside"):
            db.session.execute(update(Organization).where(
                Organization.name == "Written inside").values(name="Renamed outside"))
        with transaction():
            pass
        assert _names("Written inside", "Renamed outside") == ["Written inside"]


def test_a_read_snapshot_ends_with_a_rollback(app) -> None:
    """Whatever a read left on the connection is not committed by the next transaction."""
    from sqlalchemy import text

    from webapp.extensions import db

    with app.app_context():
        with transaction() as session:
            session.add(_org("Before the read"))
        connection = db.session.connection()
        connection.execute(text("UPDATE organizations SET name = 'Changed by a raw read' "
                                "WHERE name = 'Before the read'"))
        with transaction():
            pass
        assert _names("Before the read", "Changed by a raw read") == ["Before the read"]


def test_jobs_start_after_the_commit_and_are_dropped_with_a_rollback(app) -> None:
    """A job handed over before the commit could look for rows that are not there yet."""
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import Organization

    seen: list[tuple[str, bool]] = []

    def dispatcher(task: str, row_id: str) -> None:
        with db.engine.connect() as other:  # what a job's own connection would see
            found = other.execute(select(Organization.id).where(
                Organization.id == row_id)).first() is not None
        seen.append((task, found))

    app.extensions[DISPATCHER] = dispatcher
    with app.app_context():
        with transaction() as session:
            org = _org("Dispatched")
            session.add(org)
            with transaction() as inner:
                enqueue_after_commit(inner, "probe", org.id)
            with pytest.raises(RuntimeError), transaction() as inner:
                enqueue_after_commit(inner, "dropped with its savepoint", org.id)
                raise RuntimeError("boom")
            assert seen == []
        assert seen == [("probe", True)]
        with pytest.raises(RuntimeError), transaction() as session:
            enqueue_after_commit(session, "dropped with its transaction", "x")
            raise RuntimeError("boom")
        with transaction():
            pass
        assert seen == [("probe", True)]
