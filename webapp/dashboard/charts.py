"""The geometry of the insights charts, drawn by the server as SVG (no chart script).

Pure functions: numbers in, coordinates and labels out; the templates in
`templates/dashboard/insights/` draw them. Each chart comes in a wide and a narrow size
(one shown by CSS per screen width), so its text stays readable on a phone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from typing import Any

# name, label, colour (>= 3:1 against white, WCAG 1.4.11), dash pattern ("" for solid)
FLOWS = (("issued", "Issued", "#3b5bdb", ""),
         ("pageViews", "Page views", "#7a5af8", "6 4"),
         ("addIntents", "Add intents", "#b54708", "2 3"),
         ("added", "Added", "#067647", ""),
         ("removed", "Removed", "#b42318", "9 3 2 3"))
SIZES = {"wide": (880, 260, 12), "narrow": (360, 240, 13)}  # width, height, font size
_LEFT, _RIGHT, _TOP, _BOTTOM = 44, 12, 14, 30


@dataclass(frozen=True)
class Frame:
    """A chart's box: the plot area inside the axes, the y ticks and the x labels."""

    size: str
    width: int
    height: int
    font: int
    left: int
    top: int
    plot_width: float
    plot_height: float
    y_ticks: list[tuple[float, int]]  # (y, value)
    x_labels: list[tuple[float, str]]  # (x, text)
    bottom: float  # y of the x axis


def nice_top(value: int) -> int:
    """The smallest 1, 2 or 5 times a power of ten that is >= value (at least 1)."""
    if value <= 1:
        return 1
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= value)


def _ticks(top: int) -> list[int]:
    """Four or five round values from 0 to `top`, never fractions of a pass."""
    step = max(1, top // 4) if top % 4 == 0 else max(1, nice_top(math.ceil(top / 5)))
    return list(range(0, top + 1, step))


def frame(size: str, days: list[date], top: int) -> Frame:
    """The box of a per-day chart of `len(days)` bands with values up to `top`."""
    width, height, font = SIZES[size]
    plot_width = width - _LEFT - _RIGHT
    plot_height = height - _TOP - _BOTTOM
    top = nice_top(top)
    bottom = _TOP + plot_height
    y_ticks = [(round(bottom - value / top * plot_height, 1), value) for value in _ticks(top)]
    labels = 6 if size == "wide" else 3
    every = max(1, math.ceil(len(days) / labels))
    x_labels = [(band_centre(plot_width, len(days), i) + _LEFT, _day_label(day))
                for i, day in enumerate(days) if i % every == 0]
    return Frame(size, width, height, font, _LEFT, _TOP, plot_width, plot_height,
                 y_ticks, x_labels, bottom)


def band_centre(plot_width: float, count: int, index: int) -> float:
    """The x of the middle of band `index` of `count` equal bands."""
    return round((index + 0.5) * plot_width / max(count, 1), 1)


def _day_label(day: date) -> str:
    return f"{day.strftime('%b')} {day.day}"


def _y(f: Frame, value: int) -> float:
    top = f.y_ticks[-1][1]
    return round(f.bottom - value / top * f.plot_height, 1)


def lines(size: str, series: list[dict[str, Any]]) -> dict[str, Any]:
    """The activity chart: one line per flow (issued ... removed) over the days."""
    days = [date.fromisoformat(row["date"]) for row in series]
    top = max([row[name] for row in series for name, *_ in FLOWS] or [0])
    f = frame(size, days, top)
    drawn = []
    for name, label, colour, dash in FLOWS:
        points = [(f.left + band_centre(f.plot_width, len(days), i), _y(f, row[name]),
                   f"{row['date']}: {row[name]} {label.lower()}")
                  for i, row in enumerate(series)]
        drawn.append({"name": name, "label": label, "colour": colour, "dash": dash,
                      "path": " ".join(f"{x},{y}" for x, y, _ in points), "points": points})
    return {"frame": f, "lines": drawn}


def area(size: str, series: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """A filled line of one count over the days (installed: a level, not a flow)."""
    days = [date.fromisoformat(row["date"]) for row in series]
    f = frame(size, days, max([row[name] for row in series] or [0]))
    points = [(f.left + band_centre(f.plot_width, len(days), i), _y(f, row[name]),
               f"{row['date']}: {row[name]}") for i, row in enumerate(series)]
    path = " ".join(f"{x},{y}" for x, y, _ in points)
    fill = f"{points[0][0]},{f.bottom} {path} {points[-1][0]},{f.bottom}" if points else ""
    return {"frame": f, "path": path, "fill": fill, "points": points}


def stacked(size: str, series: list[dict[str, Any]], parts: tuple[str, ...]
            ) -> dict[str, Any]:
    """Bars of `parts` stacked per day (update deliveries: delivered, then failed)."""
    days = [date.fromisoformat(row["date"]) for row in series]
    f = frame(size, days, max([sum(row[p] for p in parts) for row in series] or [0]))
    band = f.plot_width / max(len(days), 1)
    bar = round(max(1.0, min(band * 0.7, 28)), 1)
    bars = []
    for i, row in enumerate(series):
        x, base = round(f.left + band_centre(f.plot_width, len(days), i) - bar / 2, 1), 0
        for part in parts:
            if row[part]:
                y0, y1 = _y(f, base), _y(f, base + row[part])
                bars.append({"part": part, "x": x, "y": y1, "height": round(y0 - y1, 1),
                             "title": f"{row['date']}: {row[part]} {part_label(part)}"})
            base += row[part]
    return {"frame": f, "bars": bars, "width": bar}


def part_label(name: str) -> str:
    """The words for a count's name: "updatesDelivered" -> "updates delivered"."""
    return LABELS.get(name, name).lower()


LABELS = {"issued": "Issued", "pageViews": "Page views", "addIntents": "Add intents",
          "added": "Added", "removed": "Removed", "installed": "Installed",
          "updatesSent": "Updates sent", "updatesDelivered": "Updates delivered",
          "updatesFailed": "Updates failed", "balanceChanges": "Balance changes",
          "signupPageViews": "Sign-up page views", "signups": "Sign-ups",
          "signupsAdded": "Sign-ups added"}
COUNTS = tuple(LABELS)  # the order of the counts in tables and CSV


def share(value: int, largest: int) -> float:
    """`value` as a percentage of `largest` (0 when there is nothing), for bar widths."""
    return round(100 * value / largest, 1) if largest else 0.0


def percent(rate: float | None) -> str:
    """A rate as people read it: 0.4 -> "40%", 0.3333 -> "33.3%", None -> "—"."""
    if rate is None:
        return "—"
    return f"{round(rate * 100, 1):g}%"


def funnel(totals: dict[str, Any], rates: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps from issued to installed, then removed: each with its bar's width (of the
    largest step), its colour and what is said under it (the wallets' split, a rate)."""
    by = totals["byPlatform"]
    steps = [("issued", "#3b5bdb", None),
             ("pageViews", "#7a5af8", "views of the holder pages"),
             ("addIntents", "#b54708", "taps on an Add to Wallet button"),
             ("added", "#067647", f"install rate {percent(rates['installRate'])} of issued"),
             ("installed", "#0e7090", "in wallets at the end of the period"),
             ("removed", "#b42318", f"removal rate {percent(rates['removalRate'])} of added")]
    largest = max(totals[name] for name, _, _ in steps)
    return [{"name": name, "label": LABELS[name], "value": totals[name], "colour": colour,
             "width": share(totals[name], largest), "note": note,
             "split": f"Apple {by['apple'][name]} · Google {by['google'][name]}"
             if name != "pageViews" else None}
            for name, colour, note in steps]


def signup_funnel(totals: dict[str, Any]) -> list[dict[str, Any]]:
    """The sign-up pages' steps: page views, sign-ups, and their passes added to a wallet
    (each with its share of the step before)."""
    steps = [("signupPageViews", "#7a5af8"), ("signups", "#3b5bdb"),
             ("signupsAdded", "#067647")]
    largest = max(totals[name] for name, _ in steps)
    out, before = [], None
    for name, colour in steps:
        value = totals[name]
        note = f"{percent(value / before if before else None)} of the step before" \
            if before is not None else "views of open sign-up pages"
        out.append({"name": name, "label": LABELS[name], "value": value, "colour": colour,
                    "width": share(value, largest), "note": note, "split": None})
        before = value
    return out


def describe(data: dict[str, Any]) -> str:
    """One sentence a screen reader says for the activity chart."""
    totals, series = data["totals"], data["series"]
    counts = ", ".join(f"{totals[name]} {part_label(name)}" for name, *_ in FLOWS)
    busiest = max(series, key=lambda row: row["issued"] + row["added"], default=None)
    peak = f" Busiest day: {busiest['date']} ({busiest['issued']} issued, " \
        f"{busiest['added']} added)." if busiest and busiest["issued"] + busiest["added"] \
        else ""
    return f"From {data['from']} to {data['to']}: {counts}.{peak}"


def group_bars(series: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of the by-template or by-wallet chart: issued, added and installed as bars of
    one scale."""
    names = ("issued", "added", "installed")
    largest = max([row[name] for row in series for name in names] or [0])
    return [{"label": WALLETS[row["platform"]] if "platform" in row
             else row.get("templateName") or row["templateId"],
             "bars": [{"name": name, "label": LABELS[name], "value": row[name],
                       "colour": COLOURS[name], "width": share(row[name], largest)}
                      for name in names]}
            for row in series]


WALLETS = {"apple": "Apple Wallet", "google": "Google Wallet"}
COLOURS = {"issued": "#3b5bdb", "added": "#067647", "installed": "#0e7090",
           "updatesDelivered": "#067647", "updatesFailed": "#b42318"}
LEGEND = [(label, colour, dash, "line") for _, label, colour, dash in FLOWS]
