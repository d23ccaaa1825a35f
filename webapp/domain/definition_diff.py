"""What changed between two template definitions, in words a person reads.

`diff(before, after)` lists one `Change` per thing that differs, section by section (text,
colours, wallets, images, barcode, event, fields, locations), then anything else by its
JSON path. Fields are matched by key, wherever they sit, so moving a field to another row
is one change ("Row"), not a removal and an addition; a new order within a row is one
change for the row. Both definitions are saved ones (valid), but nothing here raises on a
definition of another shape: what is not understood is compared as JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from webapp.domain.definition_read import dig

_TEXT = (("description", "Description"), ("organizationName", "Organization name"),
         ("logoText", "Logo text"), ("expiresAt", "Expires"))
_COLOURS = (("background", "Background"), ("foreground", "Text"), ("label", "Labels"))
_WALLETS = (("apple", "Apple Wallet"), ("google", "Google Wallet"))
# `footer` is refused now; older revisions may still have one.
_SLOTS = ("icon", "logo", "strip", "thumbnail", "background", "footer", "hero")
_BARCODE = (("format", "Format"), ("value", "Value"), ("perPass", "Value per pass"),
            ("altText", "Text under it"))
_EVENT = ((("name",), "Name"), (("venue", "name"), "Venue"), (("venue", "address"), "Address"),
          (("startsAt",), "Starts"), (("endsAt",), "Ends"), (("doorsOpenAt",), "Doors open"),
          (("category",), "Kind of event"), (("venue", "location"), "Venue location"),
          (("seatFields",), "Seat fields"))
_ROWS = (("header", "Header row"), ("primary", "Primary row"), ("secondary", "Secondary row"),
         ("auxiliary", "Auxiliary row"), ("back", "Back of the pass"))
_FIELD = (("label", "Label"), ("binding", "Filled in"), ("value", "Value"),
          ("required", "Required"), ("format", "Format"), ("changeMessage", "Change message"))
_BINDINGS = {"shared": "the same on every pass", "perPass": "per pass"}
_BARCODE_FORMATS = {"qr": "QR", "pdf417": "PDF417", "aztec": "Aztec", "code128": "Code 128"}
# Members read above; the rest (schemaVersion, anything new) is compared by JSON path.
_KNOWN = {"description", "organizationName", "logoText", "expiresAt", "colors", "platforms",
          "images", "barcode", "event", "config", "locations", "redemption"}
_REDEMPTION = (("mode", "Mode"), ("maxUses", "Most uses"),
               ("voidOnRedemption", "Void when checked in"))
_MODES = {"none": "off", "single": "once", "multiple": "several times"}


@dataclass(frozen=True)
class Change:
    """One difference: `section` ("Colours"), `item` ("Background"), `what` changed of it
    ("" for the item itself), `kind` (added | removed | changed), the values as text, and
    `show`: how a page draws the values (text | colour | image: an asset ID)."""

    section: str
    item: str
    what: str
    kind: str
    before: str | None
    after: str | None
    show: str = "text"


def diff(before: Any, after: Any) -> list[Change]:
    """Every difference between two definitions, in reading order."""
    old, new = _object(before), _object(after)
    changes: list[Change] = []
    for key, name in _TEXT:
        _compare(changes, "Text", name, "", old.get(key), new.get(key))
    for key, name in _COLOURS:
        _compare(changes, "Colours", name, "", dig(old, "colors", key),
                 dig(new, "colors", key), show="colour")
    for key, name in _WALLETS:
        _compare(changes, "Wallets", name, "", _on_off(dig(old, "platforms", key)),
                 _on_off(dig(new, "platforms", key)))
    for slot in _SLOTS:
        _compare(changes, "Images", slot.capitalize(), "", dig(old, "images", slot),
                 dig(new, "images", slot), show="image")
    _barcode(changes, old.get("barcode"), new.get("barcode"))
    for path, name in _EVENT:
        _compare(changes, "Event", name, "", dig(old, "event", *path),
                 dig(new, "event", *path))
    _fields(changes, _field_rows(old), _field_rows(new))
    _locations(changes, old.get("locations"), new.get("locations"))
    for key, name in _REDEMPTION:
        _compare(changes, "Check-in", name, "",
                 _redemption_value(key, dig(old, "redemption", key)),
                 _redemption_value(key, dig(new, "redemption", key)))
    for key in sorted((set(old) | set(new)) - _KNOWN):
        _compare(changes, "Other", key, "", old.get(key), new.get(key))
    return changes


def _redemption_value(key: str, value: Any) -> Any:
    if key == "mode" and isinstance(value, str):
        return _MODES.get(value, value)
    return value


def _barcode(changes: list[Change], old: Any, new: Any) -> None:
    if not isinstance(old, dict) or not isinstance(new, dict):
        _compare(changes, "Barcode", "Barcode", "", _barcode_text(old), _barcode_text(new))
        return
    for key, name in _BARCODE:
        _compare(changes, "Barcode", name, "", _barcode_value(key, old.get(key)),
                 _barcode_value(key, new.get(key)))


def _barcode_text(barcode: Any) -> str | None:
    if not isinstance(barcode, dict):
        return None if barcode is None else _text(barcode)
    kind = _barcode_value("format", barcode.get("format"))
    value = "set per pass" if barcode.get("perPass") is True else _text(barcode.get("value"))
    return f"{kind}: {value}" if value else kind


def _barcode_value(key: str, value: Any) -> str | None:
    if key == "format" and value in _BARCODE_FORMATS:
        return _BARCODE_FORMATS[value]
    return _text(value)


def _field_rows(definition: dict[str, Any]) -> dict[str, tuple[str, int, dict[str, Any]]]:
    """Key -> (row, position, field) for every keyed field."""
    found: dict[str, tuple[str, int, dict[str, Any]]] = {}
    groups = dig(definition, "config", "fields")
    for row, _name in _ROWS:
        items = groups.get(row) if isinstance(groups, dict) else None
        for position, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict) and isinstance(item.get("key"), str):
                found.setdefault(item["key"], (row, position, item))
    return found


def _fields(changes: list[Change], old: dict[str, tuple[str, int, dict[str, Any]]],
            new: dict[str, tuple[str, int, dict[str, Any]]]) -> None:
    rows = dict(_ROWS)
    keys = list(new) + [key for key in old if key not in new]
    for key in keys:
        before, after = old.get(key), new.get(key)
        shown = (after or before or ("", 0, {}))[2]
        item = f"{shown.get('label') or key} ({key})"
        if before is None or after is None:
            summary = _field_summary(rows, *(after or before or ("", 0, {})))
            changes.append(Change("Fields", item, "", "added" if before is None else "removed",
                                  None if before is None else summary,
                                  None if after is None else summary))
            continue
        _compare(changes, "Fields", item, "Row", rows.get(before[0]), rows.get(after[0]))
        for attribute, name in _FIELD:
            _compare(changes, "Fields", item, name,
                     _field_value(attribute, before[2].get(attribute)),
                     _field_value(attribute, after[2].get(attribute)))
    for row, name in _ROWS:  # a new order of the fields that stayed in a row
        kept_old = [k for k, place in sorted(old.items(), key=lambda i: i[1][1])
                    if place[0] == row and new.get(k, ("",))[0] == row]
        kept_new = [k for k, place in sorted(new.items(), key=lambda i: i[1][1])
                    if place[0] == row and old.get(k, ("",))[0] == row]
        if kept_old != kept_new:
            changes.append(Change("Fields", name, "Order", "changed", ", ".join(kept_old),
                                  ", ".join(kept_new)))


def _field_summary(rows: dict[str, str], row: str, position: int, field: dict[str, Any]
                   ) -> str:
    parts = [f"{rows.get(row, row)}, position {position + 1}",
             _field_value("binding", field.get("binding")) or ""]
    if field.get("binding") == "shared" and field.get("value") is not None:
        parts.append(f"value {_text(field.get('value'))}")
    if field.get("required") is True:
        parts.append("required")
    return "; ".join(part for part in parts if part)


def _field_value(attribute: str, value: Any) -> str | None:
    if attribute == "binding" and value in _BINDINGS:
        return _BINDINGS[value]
    if attribute == "required":
        return "yes" if value is True else None
    if attribute == "format" and value == "text":
        return None  # the default: "text" and no format are the same field
    return _text(value)


def _locations(changes: list[Change], old: Any, new: Any) -> None:
    before = old if isinstance(old, list) else []
    after = new if isinstance(new, list) else []
    for index in range(max(len(before), len(after))):
        _compare(changes, "Locations", f"Location {index + 1}", "",
                 _place(before[index]) if index < len(before) else None,
                 _place(after[index]) if index < len(after) else None)


def _place(location: Any) -> str | None:
    if not isinstance(location, dict):
        return _text(location)
    where = f"{location.get('latitude')}, {location.get('longitude')}"
    text = location.get("relevantText")
    return f"{where}: {text}" if text else where


def _compare(changes: list[Change], section: str, item: str, what: str, before: Any,
             after: Any, show: str = "text") -> None:
    old, new = _text(before), _text(after)
    if old == new:
        return
    kind = "added" if old is None else "removed" if new is None else "changed"
    changes.append(Change(section, item, what, kind, old, new, show))


def _text(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _on_off(value: Any) -> str | None:
    return None if value is None else ("on" if value is True else "off")


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}

