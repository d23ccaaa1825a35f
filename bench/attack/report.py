"""The table of the attack run: one row a figure, PASS/FAIL where something is expected;
and `probe`, which makes a probe's exception a FAIL row."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Row:
    """One figure: what was measured, what it came to, and what is expected."""

    part: str
    measure: str
    value: str
    expected: str = ""
    ok: bool | None = None  # None: a figure with nothing to hold it against

    @property
    def result(self) -> str:
        return {True: "PASS", False: "FAIL", None: ""}[self.ok]


def table(rows: list[Row]) -> str:
    """The rows as an aligned text table."""
    head = ("part", "measure", "value", "expected", "result")
    cells = [head] + [(r.part, r.measure, r.value, r.expected, r.result) for r in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True))
             .rstrip() for line in cells]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def at_most(part: str, measure: str, value: float, limit: float, unit: str = "") -> Row:
    """A figure that must not pass `limit`."""
    def shown(number: float) -> str:
        return f"{number:,}{unit}" if isinstance(number, int) else f"{number:,.2f}{unit}"
    return Row(part, measure, shown(value), f"<= {shown(limit)}", value <= limit)


def statuses(counts: Counter[int]) -> str:
    """The statuses seen, most frequent first: `404 x 120, 400 x 3`."""
    return ", ".join(f"{status} x {count:,}" for status, count in counts.most_common())


def note(part: str, text: str) -> None:
    """A finding worth reading next to the table (a 5xx, a leak): printed as it happens."""
    print(f"  [{part}] {text[:400]}", flush=True)


def probe(part: str, name: str) -> Callable[[Callable[..., list[Row]]],
                                            Callable[..., list[Row]]]:
    """A probe reports what it sees: an exception becomes a FAIL row, not the end of the run."""
    def wrap(function: Callable[..., list[Row]]) -> Callable[..., list[Row]]:
        def run(*args: Any) -> list[Row]:
            try:
                return function(*args)
            except Exception as exc:  # reported in the table
                return [Row(part, name, f"probe error: {type(exc).__name__}: {exc}"[:120],
                            "", False)]
        return run
    return wrap
