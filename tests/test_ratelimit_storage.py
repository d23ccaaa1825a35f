"""The rate-limit counters file: counts like limits' storages do, on a clock we move, and is
shared by every storage (and every process) that opens the same file."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import types
from pathlib import Path

import pytest
from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from tests.conftest import base_overrides
from webapp import create_app, ratelimit_storage
from webapp.ratelimit_storage import SQLiteStorage


class Clock:
    """`time` as the storage sees it: wall clock and monotonic clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.25
        self.mono = 1000.0

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        self.now += seconds
        self.mono += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(ratelimit_storage, "time",
                        types.SimpleNamespace(time=clock.time, monotonic=clock.monotonic))
    return clock


def open_storage(path: Path) -> SQLiteStorage:
    storage = storage_from_string(ratelimit_storage.uri(path))
    assert isinstance(storage, SQLiteStorage)
    return storage


def rows(path: Path) -> list[tuple[str, int, float]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT key, count, expires_at FROM counters ORDER BY key").fetchall()


def test_counts_within_a_window_and_starts_a_new_one_after_it(clock: Clock,
                                                              tmp_path: Path) -> None:
    storage = open_storage(tmp_path / "ratelimits.sqlite")
    limiter = FixedWindowRateLimiter(storage)
    limit = RateLimitItemPerSecond(3)
    window_end = clock.now + 1
    assert [limiter.hit(limit, "k") for _ in range(4)] == [True, True, True, False]
    key = limit.key_for("k")
    assert storage.get(key) == 4
    assert storage.get_expiry(key) == window_end
    clock.advance(0.99)
    assert not limiter.hit(limit, "k")
    assert storage.get_expiry(key) == window_end  # a hit does not move the window on
    clock.now = window_end  # the window's end: the counter is gone
    assert storage.get(key) == 0
    assert storage.get_expiry(key) == clock.now
    assert limiter.hit(limit, "k")
    assert storage.get(key) == 1
    assert storage.get_expiry(key) == clock.now + 1
    assert limiter.get_window_stats(limit, "k") == (clock.now + 1, 2)


def test_incr_adds_the_amount_and_keys_count_apart(clock: Clock, tmp_path: Path) -> None:
    storage = open_storage(tmp_path / "ratelimits.sqlite")
    assert storage.incr("a", 60, amount=5) == 5
    assert storage.incr("a", 60, amount=2) == 7
    assert storage.incr("b", 60) == 1
    assert (storage.get("a"), storage.get("b"), storage.get("never")) == (7, 1, 0)


def test_clear_reset_and_check(clock: Clock, tmp_path: Path) -> None:
    storage = open_storage(tmp_path / "ratelimits.sqlite")
    for key in ("a", "b", "c"):
        storage.incr(key, 60)
    storage.clear("a")
    assert (storage.get("a"), storage.get("b")) == (0, 1)
    assert storage.reset() == 2
    assert rows(tmp_path / "ratelimits.sqlite") == []
    assert storage.check() is True


def test_check_is_false_when_the_file_cannot_be_opened(tmp_path: Path) -> None:
    (tmp_path / "not-a-folder").write_text("")
    storage = open_storage(tmp_path / "not-a-folder" / "ratelimits.sqlite")
    assert storage.check() is False


def test_expired_rows_are_swept_inline_at_most_once_a_second(clock: Clock,
                                                             tmp_path: Path) -> None:
    path = tmp_path / "ratelimits.sqlite"
    storage = open_storage(path)
    for i in range(50):
        storage.incr(f"old-{i}", 1)
    storage.incr("long", 3600)
    clock.now += 5  # the wall clock moves, the per-process sweep is not due yet
    clock.mono += 0.5
    storage.incr("new", 1)
    assert len(rows(path)) == 52
    clock.mono += 0.5
    storage.incr("newer", 1)
    assert [key for key, _count, _expires in rows(path)] == ["long", "new", "newer"]
    assert storage.get("long") == 1


def test_two_storages_on_one_file_share_their_counts(clock: Clock, tmp_path: Path) -> None:
    one = open_storage(tmp_path / "ratelimits.sqlite")
    two = open_storage(tmp_path / "ratelimits.sqlite")
    assert [one.incr("k", 1), two.incr("k", 1), one.incr("k", 1), two.incr("k", 1)] == \
        [1, 2, 3, 4]
    limit = RateLimitItemPerMinute(5)
    assert FixedWindowRateLimiter(one).hit(limit, "x")
    assert FixedWindowRateLimiter(two).get_window_stats(limit, "x") == (clock.now + 60, 4)


_COUNT_IN_ANOTHER_PROCESS = """
import sys
from limits.storage import storage_from_string
import webapp.ratelimit_storage
storage = storage_from_string(sys.argv[1])
print(" ".join(str(storage.incr("shared", 60)) for _ in range(300)))
"""


def test_processes_counting_at_once_share_one_count(tmp_path: Path) -> None:
    uri = ratelimit_storage.uri(tmp_path / "ratelimits.sqlite")
    procs = [subprocess.Popen([sys.executable, "-c", _COUNT_IN_ANOTHER_PROCESS, uri],
                              stdout=subprocess.PIPE, text=True) for _ in range(3)]
    seen: list[int] = []
    for proc in procs:
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0
        seen += [int(n) for n in out.split()]
    # Every hit got its own count: none lost, none counted twice.
    assert sorted(seen) == list(range(1, 901))


def test_the_app_counts_in_its_instance_folder_without_redis(
        database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from webapp.extensions import db, limiter

    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("RATE_LIMIT_FILE", raising=False)
    overrides = base_overrides(tmp_path, database_url) | {"RATE_LIMIT_FILE": None}
    app = create_app(overrides)
    assert isinstance(limiter.storage, SQLiteStorage)
    assert limiter.storage.path == tmp_path / "instance" / "ratelimits.sqlite"
    with app.app_context():
        db.engine.dispose()

    app = create_app(base_overrides(tmp_path, database_url))  # RATE_LIMIT_FILE set
    assert isinstance(limiter.storage, SQLiteStorage)
    assert limiter.storage.path == tmp_path / "ratelimits.sqlite"
    with app.app_context():
        db.engine.dispose()
