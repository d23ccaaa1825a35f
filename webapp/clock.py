"""The one place that reads the time, so tests can move it (`clock.set_now`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

_source: Callable[[], datetime] | None = None


def now() -> datetime:
    """The current time, timezone-aware UTC, to the millisecond."""
    value = _source() if _source is not None else datetime.now(UTC)
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def set_now(source: Callable[[], datetime] | None) -> None:
    """Replace the time source (tests inject time instead of sleeping); None restores it."""
    global _source
    _source = source


def isoformat(value: datetime | None) -> str | None:
    """ISO 8601 UTC with milliseconds: `2026-11-22T10:15:30.123Z`."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    elif value.tzinfo is not UTC:
        value = value.astimezone(UTC)
    # "2026-11-22T10:15:30.123+00:00" -> "...30.123Z" (answers carry several: keep it cheap)
    return value.isoformat(timespec="milliseconds")[:-6] + "Z"
