"""Colour pairs that are hard to read, in words, for the colour inputs: a warning that never
blocks saving (the wallets draw what they are given)."""

from __future__ import annotations

from typing import Any

from webapp.domain import contrast

_NAMES = {"foreground": "text colour", "label": "label colour"}


def warnings(definition: dict[str, Any]) -> list[dict[str, str]]:
    """One warning per colour pair of the definition below WCAG AA: the input it concerns
    (`color-foreground`, `color-label`) and its message."""
    colors = definition.get("colors")
    if not isinstance(colors, dict):
        return []
    return [{"input": f"color-{front}",
             "message": (f"The {_NAMES[front]} on the background has a contrast of "
                         f"{_floor(measured)}:1; WCAG AA asks for at least "
                         f"{contrast.AA_TEXT:g}:1, so some people will not be able to "
                         "read it.")}
            for front, _back, measured in contrast.weak_pairs(colors)]


def _floor(measured: float) -> str:
    """The ratio cut (not rounded) to two decimals, so 4.499 never reads as 4.5."""
    return f"{int(measured * 100) / 100:g}"
