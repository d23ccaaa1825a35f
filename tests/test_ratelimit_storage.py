"""The in-process rate-limit storage: counts like limits' MemoryStorage, starts no threads."""

from __future__ import annotations

import threading
import time

from limits import RateLimitItemPerSecond
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from webapp import ratelimit_storage


def test_counts_and_resets_without_starting_threads(monkeypatch) -> None:
    storage = storage_from_string("inprocess://")
    assert isinstance(storage, ratelimit_storage.InProcessStorage)
    limiter = FixedWindowRateLimiter(storage)
    limit = RateLimitItemPerSecond(3)
    before = threading.active_count()
    assert [limiter.hit(limit, "k") for _ in range(4)] == [True, True, True, False]
    assert threading.active_count() <= before
    time.sleep(1.05)
    assert limiter.hit(limit, "k")


def test_sweeps_expired_counters_inline(monkeypatch) -> None:
    storage = ratelimit_storage.InProcessStorage()
    monkeypatch.setattr(ratelimit_storage, "SWEEP_EVERY", 0.0)
    storage.incr("old", 0.01)
    time.sleep(0.02)
    storage._next_sweep = 0.0
    storage.incr("new", 10)
    assert "old" not in storage.storage and "old" not in storage.expirations
    assert storage.storage["new"] == 1


def test_the_app_uses_it_without_redis(app) -> None:
    from webapp.extensions import limiter

    with app.app_context():
        assert isinstance(limiter.storage, ratelimit_storage.InProcessStorage)
