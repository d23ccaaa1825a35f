"""Text in the field formats: a plain decimal number (`number`), a date (`date`, YYYY-MM-DD)
and a date and time with a timezone (`dateTime`, ISO 8601 with Z or +hh:mm)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone

_NUMERIC = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_DATETIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})"
    r"(?::([0-9]{2})(?:\.([0-9]{1,9}))?)?"
    r"(?:(Z)|([+-])([0-9]{2}):([0-9]{2}))"
)


def is_numeric_text(value: str) -> bool:
    """Whether text is a plain decimal number (what format `number` accepts as text)."""
    return _NUMERIC.fullmatch(value) is not None


def parse_date(value: str) -> date | None:
    """A date from YYYY-MM-DD; None if invalid."""
    match = _DATE.fullmatch(value)
    if match is None:
        return None
    try:
        return date(*(int(part) for part in match.groups()))
    except ValueError:
        return None


def parse_datetime(value: str) -> datetime | None:
    """An aware datetime from ISO 8601 with a timezone (Z or +hh:mm); None if invalid."""
    if not isinstance(value, str):
        return None
    match = _DATETIME.fullmatch(value)
    if match is None:
        return None
    year, month, day, hour, minute, second, fraction, zulu, sign, off_h, off_m = match.groups()
    if zulu:
        tz = UTC
    else:
        if int(off_h) > 23 or int(off_m) > 59:
            return None
        offset = timedelta(hours=int(off_h), minutes=int(off_m))
        tz = timezone(-offset if sign == "-" else offset)
    micro = int((fraction or "").ljust(6, "0")[:6])
    try:
        return datetime(int(year), int(month), int(day), int(hour), int(minute),
                        int(second or 0), micro, tzinfo=tz)
    except ValueError:
        return None
