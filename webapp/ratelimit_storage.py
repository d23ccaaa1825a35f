"""The rate-limit counters of one process when there is no Redis (`inprocess://`).

limits' `MemoryStorage` drops expired counters from a `threading.Timer` that it starts
again, 10 ms later, on the next hit: under load that is a new thread for nearly every
request, a fifth of a worker's time in the benchmark. Expired fixed-window counters are
already ignored when read, so this storage sweeps them inline, at most once a second.
"""

from __future__ import annotations

import time

from limits.storage import MemoryStorage

SWEEP_EVERY = 1.0


class InProcessStorage(MemoryStorage):
    """MemoryStorage without its expiry thread."""

    STORAGE_SCHEME = ["inprocess"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: str):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.timer.cancel()
        self._next_sweep = 0.0

    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + SWEEP_EVERY
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        self.timer.cancel()
