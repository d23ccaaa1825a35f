"""A pass's seat, read from the fields its template's `event.seatFields` names: what Apple
puts in `semantics.seats` and Google in `seatInfo`.

Without `seatFields` the fields keyed `section`, `row`, `seat` and `gate` give the seat, as
they always have on Google.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

PARTS = ("section", "row", "number", "gate")
DEFAULT_KEYS = {"section": "section", "row": "row", "number": "seat", "gate": "gate"}
GROUPS = ("header", "primary", "secondary", "auxiliary", "back")


def seat_keys(definition: Mapping[str, Any]) -> dict[str, str]:
    """Seat part -> the key of the field that gives it."""
    event = definition.get("event")
    named = event.get("seatFields") if isinstance(event, dict) else None
    if isinstance(named, dict):
        return {part: named[part] for part in PARTS if isinstance(named.get(part), str)}
    return dict(DEFAULT_KEYS)


def seat(definition: Mapping[str, Any], field_values: Mapping[str, Any]) -> dict[str, str]:
    """Seat part -> its text for one pass (parts whose field has no value are left out)."""
    by_key = {str(spec.get("key")): spec for spec in _fields(definition)}
    out = {}
    for part, key in seat_keys(definition).items():
        spec = by_key.get(key)
        if spec is None:
            continue
        raw = spec.get("value") if spec.get("binding") == "shared" else field_values.get(key)
        if raw is not None and raw != "":
            out[part] = str(raw)
    return out


def _fields(definition: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    config = definition.get("config")
    groups = config.get("fields") if isinstance(config, dict) else None
    if not isinstance(groups, dict):
        return
    for group in GROUPS:
        items = groups.get(group)
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get("key"), str):
                yield item
