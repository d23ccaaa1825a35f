"""Colour contrast as WCAG 2 measures it: the ratio of two colours' relative luminances, from
1:1 (the same colour) to 21:1 (black on white). AA asks 4.5:1 for text of normal size, and a
pass's labels and values are small text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

AA_TEXT = 4.5  # WCAG 2 AA, success criterion 1.4.3, text of normal size

_HEX = re.compile(r"#[0-9a-fA-F]{6}")
# The pairs a pass draws: its values and its labels, each on the background.
PAIRS = (("foreground", "background"), ("label", "background"))


def luminance(color: str) -> float:
    """The relative luminance of a "#rrggbb" colour, 0 (black) to 1 (white).

    :raises ValueError: when `color` is not "#rrggbb".
    """
    if _HEX.fullmatch(color) is None:
        raise ValueError(f"not a colour like #1a2b3c: {color!r}")
    red, green, blue = (_linear(int(color[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def ratio(first: str, second: str) -> float:
    """The contrast ratio of two "#rrggbb" colours, in either order (1.0 to 21.0).

    :raises ValueError: when either is not "#rrggbb".
    """
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def weak_pairs(colors: Mapping[str, object]) -> list[tuple[str, str, float]]:
    """The pairs of `colors` (a definition's `colors`) below AA, as (front, back, ratio).

    A pair with a missing or malformed colour is skipped: the definition's validation
    reports those.
    """
    weak = []
    for front, back in PAIRS:
        a, b = colors.get(front), colors.get(back)
        if not (isinstance(a, str) and isinstance(b, str)
                and _HEX.fullmatch(a) and _HEX.fullmatch(b)):
            continue
        measured = ratio(a, b)
        if measured < AA_TEXT:
            weak.append((front, back, measured))
    return weak


def _linear(channel: float) -> float:
    """An sRGB channel (0..1) without its gamma (sRGB's threshold 0.04045; WCAG 2 prints
    0.03928, which gives the same result for 8-bit channels)."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4
