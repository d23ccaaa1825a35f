"""SQLite writers queue on an flock beside the database (webapp/services/_tx.py)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from webapp.services import _tx


def test_writers_of_two_threads_never_overlap(app, lock_path: Path) -> None:
    inside: list[int] = []
    overlaps: list[int] = []

    def writer(n: int) -> None:
        with app.app_context():
            for _ in range(20):
                with _tx.writers_queue():
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
    with app.app_context(), _tx.writers_queue():
        with _tx.writers_queue():  # a nested unit in the same thread does not deadlock
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

    from webapp.services._tx import transaction

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
        release = _tx.hold_key("org\x1ftest\x1fkey-1")
        assert release is not None
        try:
            seen: list[str] = []

            def other_thread() -> None:
                with app.app_context():
                    try:
                        _tx.hold_key("org\x1ftest\x1fkey-1")
                        seen.append("taken")
                    except _tx.KeyBusy:
                        seen.append("busy")
                    other = _tx.hold_key("org\x1ftest\x1fkey-2")  # another key is free
                    assert other is not None
                    other()

            thread = threading.Thread(target=other_thread)
            thread.start()
            thread.join(10)
            assert seen == ["busy"]
            database = _tx._database_file()
            probe = (
                "import sys; sys.path.insert(0, '.'); from webapp import create_app; "
                "from webapp.services import _tx; app = create_app({'DATABASE_URL': "
                f"'sqlite:///{database}', 'SECRET_KEY': 'x', 'ENCRYPTION_KEYS': "
                "'dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktdGVzdDE='})\n"
                "with app.app_context():\n"
                "    try:\n        _tx.hold_key('org\\x1ftest\\x1fkey-1'); print('taken')\n"
                "    except _tx.KeyBusy:\n        print('busy')\n")
            out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                 timeout=60)
            assert out.stdout.strip() == "busy", out.stderr
        finally:
            release()
        again = _tx.hold_key("org\x1ftest\x1fkey-1")
        assert again is not None
        again()


def test_work_recorded_in_a_unit_is_dispatched_after_its_commit(app) -> None:
    """A job handed over before the commit could look for rows that are not there yet."""
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import Organization
    from webapp.services import outbox

    seen: list[tuple[str, bool]] = []

    def dispatcher(task: str, row_id: str) -> None:
        with db.engine.connect() as other:  # what a job's own connection would see
            found = other.execute(select(Organization.id).where(
                Organization.id == row_id)).first() is not None
        seen.append((task, found))

    outbox.set_dispatcher(dispatcher)
    try:
        with app.app_context():
            from webapp import clock, ids

            org_id = ids.new_id("org")
            _tx.start_unit(lambda session: None)
            with _tx.transaction() as session:
                session.add(Organization(id=org_id, name="Unit", created_at=clock.now()))
                outbox.later(session, "probe", org_id)
            outbox.dispatch()  # a service's own call: the unit is still open
            assert seen == [] and _tx.unit_open()
            assert _tx.finish_unit(lambda session: None)
            outbox.dispatch()
            assert seen == [("probe", True)]
    finally:
        outbox.set_dispatcher(None)


def test_an_error_in_a_unit_undoes_all_of_it_and_the_next_transaction_opens_it_again(
        app) -> None:
    from sqlalchemy import select

    from webapp import clock, ids
    from webapp.extensions import db
    from webapp.models import Organization

    openings: list[int] = []
    with app.app_context():
        _tx.start_unit(lambda session: openings.append(1))
        with _tx.transaction() as session:
            session.add(Organization(id=ids.new_id("org"), name="Kept?", created_at=clock.now()))
        with pytest.raises(RuntimeError), _tx.transaction() as session:
            raise RuntimeError("boom")
        assert not _tx.unit_open()
        with _tx.transaction() as session:
            session.add(Organization(id=ids.new_id("org"), name="Second", created_at=clock.now()))
        assert _tx.finish_unit(lambda session: None)
        names = db.session.scalars(select(Organization.name).where(
            Organization.name.in_(["Kept?", "Second"]))).all()
        assert names == ["Second"] and openings == [1, 1]
