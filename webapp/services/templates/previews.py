"""What the dashboard draws: a template's design as a pass with sample values, and a
pass's own card, each with its barcode as inline SVG."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from webapp.domain import definition as rules
from webapp.models import Pass
from webapp.services.passes import views
from webapp.wallets import barcodes

_SAMPLES = {"number": "42", "date": "2027-06-01", "dateTime": "2027-06-01T19:30:00+02:00"}


def for_definition(definition: dict[str, Any]) -> dict[str, Any]:
    """The card of a (possibly unsaved) definition, perPass fields filled with samples.

    Never raises on a half-edited definition: what cannot be drawn is left out.
    """
    samples = {}
    for key, field in rules.per_pass_fields(definition).items():
        fmt = field.get("format", "text")
        samples[key] = _SAMPLES.get(fmt) or "\u2039" + (field.get("label") or key) + "\u203a"
    item = SimpleNamespace(field_values=samples, short_id="7K3M9Q2XHB4T", id="pass_sample",
                           barcode_value="PER-PASS-VALUE")
    card = views.preview(item, definition)  # type: ignore[arg-type]
    return _finish(card, definition)


def for_pass(item: Pass) -> dict[str, Any]:
    """The card of an issued pass (its current values)."""
    card = dict(item.preview or views.preview(item, item.definition or {}))
    return _finish(card, item.definition or {})


def _finish(card: dict[str, Any], definition: dict[str, Any]) -> dict[str, Any]:
    formats = {f.get("key"): f.get("format", "text") for _g, f in rules.fields(definition)}
    for group in card["fields"].values():
        for field in group:
            field["display"] = display(field.get("value"), formats.get(field.get("key")))
    platforms = definition.get("platforms") if isinstance(definition, dict) else None
    card["platforms"] = platforms if isinstance(platforms, dict) else {}
    barcode = card.get("barcode")
    if barcode and barcode.get("value"):
        try:
            barcode["svg"] = barcodes.svg(barcode.get("format") or "qr", barcode["value"],
                                          label="Barcode")
        except ImportError:  # zxing-cpp missing: the card shows the text instead
            barcode["svg"] = None
    return card


def display(value: str | None, fmt: str | None) -> str:
    """A value as a wallet shows it: dates in words, the rest as text."""
    if value is None or value == "":
        return ""
    if fmt == "date" and (day := rules.parse_date(value)) is not None:
        return day.strftime("%-d %b %Y")
    if fmt in ("date", "dateTime") and (moment := rules.parse_datetime(value)) is not None:
        return moment.strftime("%-d %b %Y, %H:%M")
    return value
