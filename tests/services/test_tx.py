"""SQLite writers queue on an flock beside the database (webapp/services/_tx.py)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from webapp.services import _tx


@pytest.fixture
def lock_path(app) -> Path:
    with app.app_context():
        database = _tx._database_file()
    if database is None:
        pytest.skip("PostgreSQL needs no writers' lock")
    return Path(f"{database}-writers.lock")


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
