"""Failures counted against limits: failed sign-ins, wrong current passwords, unknown codes
at the scanner. Successes are free, so a venue's staff signing in together lock nobody out.

An attempt takes one hit in each of its buckets first (an atomic count in the limiter's
storage, shared by every process), so parallel attempts cannot slip past a limit; an attempt
that succeeds gives its hits back. A bucket is a limit ("10/minute;50/hour") and a key.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Iterable

from limits import RateLimitItem, parse_many

from webapp.extensions import limiter

Bucket = tuple[str, str]  # (limits, key)


def start(buckets: Iterable[Bucket]) -> int:
    """Take a hit in every limit of `buckets`; the seconds to wait when one is used up (its
    hits then given back), else 0."""
    taken: list[tuple[RateLimitItem, str]] = []
    wait = 0
    for item, key in _items(buckets):
        taken.append((item, key))
        if not limiter.limiter.hit(item, key):
            reset = limiter.limiter.get_window_stats(item, key).reset_time
            wait = max(wait, math.ceil(reset - time.time()), 1)
    if wait:
        _give_back(taken)
    return wait


def succeeded(buckets: Iterable[Bucket]) -> None:
    """The attempt `start` counted went well: it does not count."""
    _give_back(list(_items(buckets)))


def key(purpose: str, *parts: str) -> str:
    """A bucket key for `purpose` that keeps no personal data (an email) in the limiter's
    storage."""
    return purpose + ":" + hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:32]


def words(seconds: int) -> str:
    """A wait in words: "45 seconds", "1 minute", "38 minutes"."""
    count, unit = (seconds, "second") if seconds < 60 else (math.ceil(seconds / 60), "minute")
    return f"{count} {unit}{'s' * (count != 1)}"


def _items(buckets: Iterable[Bucket]) -> Iterable[tuple[RateLimitItem, str]]:
    for limits, bucket_key in buckets:
        for item in parse_many(limits):
            yield item, bucket_key


def _give_back(taken: list[tuple[RateLimitItem, str]]) -> None:
    storage = limiter.limiter.storage
    for item, bucket_key in taken:
        storage.incr(item.key_for(bucket_key), item.get_expiry(), amount=-1)
