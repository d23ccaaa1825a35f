"""The template designer's form: definition -> form state -> definition, edit operations,
and where each definition issue belongs on the form.

The form state is a plain dict of strings, lists and booleans (what the inputs hold). The
page never edits JSON: `to_definition` builds the definition from the inputs, and `settle`
keeps the original's spelling of equal values (a date in another notation, `42` typed as
text, an omitted default) so that saving an untouched form creates no new revision.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from werkzeug.datastructures import MultiDict

from webapp.domain import definition as rules

GROUP_LABELS = {"header": "Header", "primary": "Primary", "secondary": "Secondary",
                "auxiliary": "Auxiliary", "back": "Back of the pass"}
FIELD_ATTRS = ("key", "label", "binding", "value", "required", "format", "changeMessage")
DATE_MEMBERS = ("startsAt", "endsAt", "doorsOpenAt")
_ROW = re.compile(r"^f-([a-z]+)-(\d+)-key$")
_LOC = re.compile(r"^loc-(\d+)-latitude$")
_TZ = re.compile(r"^(Z|[+-]\d{2}:\d{2})$")


def _local(value: Any) -> tuple[str, str | None]:
    """An ISO date-time as a datetime-local value and its offset."""
    moment = rules.parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        return (value if isinstance(value, str) else ""), None
    offset = value[-6:] if value[-6] in "+-" else "Z"
    text = moment.strftime("%Y-%m-%dT%H:%M" + (":%S" if moment.second else ""))
    return text, offset


def _iso(local: str, tz: str) -> str:
    """A datetime-local value with the template's offset, as ISO 8601."""
    local = local.strip()
    if not local:
        return ""
    if len(local) == 16:
        local += ":00"
    return local + (tz if _TZ.match(tz) else "Z")


def from_definition(definition: dict[str, Any], name: str, revision: int) -> dict[str, Any]:
    """The form state showing a stored definition."""
    d = definition
    colors, barcode, event = d.get("colors", {}), d.get("barcode"), d.get("event") or {}
    tz = None
    dates = {}
    for member in DATE_MEMBERS:
        dates[member], offset = _local(event.get(member))
        tz = tz or offset
    expires, offset = _local(d.get("expiresAt"))
    groups = {g: [{attr: _text(f.get(attr)) if attr != "required" else f.get(attr) is True
                   for attr in FIELD_ATTRS} for f in d.get("config", {}).get("fields", {})
                  .get(g, []) if isinstance(f, dict)] for g in rules.GROUPS}
    for rows in groups.values():
        for row in rows:
            row["binding"] = row["binding"] or "perPass"
            row["format"] = row["format"] or "text"
    return {
        "name": name, "revision": revision, "description": d.get("description", ""),
        "organizationName": d.get("organizationName", ""), "logoText": d.get("logoText", ""),
        "colors": {"background": colors.get("background", "#ffffff"),
                   "foreground": colors.get("foreground", "#000000"),
                   "label": colors.get("label") or colors.get("foreground", "#000000"),
                   "label_on": "label" in colors},
        "platforms": dict(d.get("platforms", {"apple": True, "google": True})),
        "images": dict(rules.image_refs(d)),
        "barcode": {"on": bool(barcode), "format": (barcode or {}).get("format", "qr"),
                    "mode": "perPass" if (barcode or {}).get("perPass") else "fixed",
                    "value": (barcode or {}).get("value", ""),
                    "altText": (barcode or {}).get("altText", "")},
        "groups": groups,
        "event": {"name": event.get("name", ""),
                  "venue_name": (event.get("venue") or {}).get("name", ""),
                  "venue_address": (event.get("venue") or {}).get("address", ""), **dates},
        "expiresAt": expires, "tz": tz or offset or "Z",
        "locations": [{k: _text(loc.get(k)) for k in ("latitude", "longitude", "relevantText")}
                      for loc in d.get("locations", []) if isinstance(loc, dict)],
    }


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def from_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The form state posted by the browser."""
    get = lambda name: form.get(name, "")  # noqa: E731
    groups: dict[str, list[dict[str, Any]]] = {g: [] for g in rules.GROUPS}
    rows = [(m.group(1), int(m.group(2))) for m in map(_ROW.match, form) if m]
    for group, index in sorted(rows, key=lambda r: r[1]):
        if group in groups:
            prefix = f"f-{group}-{index}-"
            row = {attr: get(prefix + attr) for attr in FIELD_ATTRS}
            row["required"] = get(prefix + "required") == "on"
            groups[group].append(row)
    indexes = sorted(int(m.group(1)) for m in map(_LOC.match, form) if m)
    locations = [{k: get(f"loc-{i}-{k}") for k in ("latitude", "longitude", "relevantText")}
                 for i in indexes]
    try:
        revision = int(get("revision"))
    except ValueError:
        revision = 0
    return {
        "name": get("name"), "revision": revision, "description": get("description"),
        "organizationName": get("organizationName"), "logoText": get("logoText"),
        "colors": {"background": get("color-background") or "#ffffff",
                   "foreground": get("color-foreground") or "#000000",
                   "label": get("color-label") or "#000000",
                   "label_on": get("color-label-on") == "on"},
        "platforms": {"apple": get("platform-apple") == "on",
                      "google": get("platform-google") == "on"},
        "images": {slot: get(f"img-{slot}") for slot in rules.SLOTS if get(f"img-{slot}")},
        "barcode": {"on": get("barcode-on") == "on", "format": get("barcode-format") or "qr",
                    "mode": get("barcode-mode") or "fixed", "value": get("barcode-value"),
                    "altText": get("barcode-altText")},
        "groups": groups,
        "event": {"name": get("event-name"), "venue_name": get("event-venue_name"),
                  "venue_address": get("event-venue_address"),
                  **{m: get(f"event-{m}") for m in DATE_MEMBERS}},
        "expiresAt": get("expiresAt"), "tz": get("tz").strip() or "Z",
        "locations": locations,
    }


def to_definition(state: dict[str, Any], template_type: str) -> dict[str, Any]:
    """The definition the form describes (validation is the service's job)."""
    colors = {"background": state["colors"]["background"],
              "foreground": state["colors"]["foreground"]}
    if state["colors"]["label_on"]:
        colors["label"] = state["colors"]["label"]
    d: dict[str, Any] = {"schemaVersion": 1, "type": template_type,
                         "description": state["description"].strip(),
                         "organizationName": state["organizationName"].strip(),
                         "colors": colors, "platforms": dict(state["platforms"])}
    if state["logoText"].strip():
        d["logoText"] = state["logoText"].strip()
    if state["images"]:
        d["images"] = dict(state["images"])
    if state["barcode"]["on"]:
        d["barcode"] = _barcode(state["barcode"])
    d["config"] = {"fields": {g: [_field(row) for row in rows]
                              for g, rows in state["groups"].items() if rows}}
    if template_type == "event_ticket":
        d["event"] = _event(state["event"], state["tz"])
    if state["expiresAt"].strip():
        d["expiresAt"] = _iso(state["expiresAt"], state["tz"])
    if state["locations"]:
        d["locations"] = [_location(loc) for loc in state["locations"]]
    return d


def _barcode(b: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"format": b["format"]}
    if b["mode"] == "perPass":
        out["perPass"] = True
    elif b["value"].strip():
        out["value"] = b["value"].strip()
    if b["altText"].strip():
        out["altText"] = b["altText"].strip()
    return out


def _field(row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"key": row["key"].strip(), "label": row["label"].strip(),
                           "binding": row["binding"] or "perPass"}
    if out["binding"] == "shared":
        out["value"] = row["value"].strip()
    elif row["required"]:
        out["required"] = True
    if row["format"] and row["format"] != "text":
        out["format"] = row["format"]
    if row["changeMessage"].strip():
        out["changeMessage"] = row["changeMessage"].strip()
    return out


def _event(e: dict[str, Any], tz: str) -> dict[str, Any]:
    venue = {"name": e["venue_name"].strip()}
    if e["venue_address"].strip():
        venue["address"] = e["venue_address"].strip()
    out: dict[str, Any] = {"name": e["name"].strip(), "venue": venue,
                           "startsAt": _iso(e["startsAt"], tz)}
    for member in ("endsAt", "doorsOpenAt"):
        if e[member].strip():
            out[member] = _iso(e[member], tz)
    return out


def _location(loc: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("latitude", "longitude"):
        text = loc[key].strip()
        try:
            out[key] = float(text)
        except ValueError:
            out[key] = text  # the validator names it
    if loc["relevantText"].strip():
        out["relevantText"] = loc["relevantText"].strip()
    return out


_DEFAULTS = (False, "", "text", (), None)


def settle(new: Any, old: Any) -> Any:
    """`new`, but where it says what `old` says in other words, `old`'s words."""
    if isinstance(new, dict) and isinstance(old, dict):
        out = {key: settle(value, old.get(key)) for key, value in new.items()}
        for key, value in old.items():
            if key not in out and (value in (False, "", "text") or value == [] or value == {}):
                out[key] = value
        return out
    if isinstance(new, list) and isinstance(old, list):
        return [settle(n, old[i]) if i < len(old) else n for i, n in enumerate(new)]
    if isinstance(new, str) and isinstance(old, int | float) and not isinstance(old, bool) \
            and rules.is_numeric_text(new) and float(new) == old:
        return old
    if isinstance(new, float) and isinstance(old, int) and not isinstance(old, bool) \
            and new == old:
        return old
    if isinstance(new, str) and isinstance(old, str) and new != old:
        a, b = rules.parse_datetime(new), rules.parse_datetime(old)
        if a is not None and b is not None and a == b and a.utcoffset() == b.utcoffset():
            return old
    return new


# ---- edit operations (buttons that change the form's shape, not the template) -----------

def apply(state: dict[str, Any], op: str) -> dict[str, Any]:
    """The form state after an operation such as `add:header`, `up:secondary:2`,
    `remove:back:0`, `addloc`, `removeloc:1`, `clearimg:logo`."""
    state = copy.deepcopy(state)
    verb, _, rest = op.partition(":")
    group, _, index_text = rest.partition(":")
    index = int(index_text) if index_text.isdigit() else -1
    rows = state["groups"].get(group)
    if verb == "add" and rows is not None:
        rows.append(_new_field(state))
    elif verb in ("remove", "up", "down") and rows is not None and 0 <= index < len(rows):
        if verb == "remove":
            rows.pop(index)
        else:
            other = index - 1 if verb == "up" else index + 1
            if 0 <= other < len(rows):
                rows[index], rows[other] = rows[other], rows[index]
    elif verb == "addloc" and len(state["locations"]) < rules.MAX_LOCATIONS:
        state["locations"].append({"latitude": "", "longitude": "", "relevantText": ""})
    elif verb == "removeloc" and rest.isdigit() and int(rest) < len(state["locations"]):
        state["locations"].pop(int(rest))
    elif verb == "clearimg":
        state["images"].pop(rest, None)
    return state


def _new_field(state: dict[str, Any]) -> dict[str, Any]:
    taken = {row["key"] for rows in state["groups"].values() for row in rows}
    number = 1
    while f"field{number}" in taken:
        number += 1
    return {"key": f"field{number}", "label": f"Field {number}", "binding": "perPass",
            "value": "", "required": False, "format": "text", "changeMessage": ""}


# ---- where an issue goes ------------------------------------------------------------------

def input_for(path: str) -> str:
    """The form input a definition issue's JSON Pointer belongs to ("" for the summary)."""
    parts = path.strip("/").split("/") if path else []
    if not parts:
        return ""
    head = parts[0]
    if head in ("description", "organizationName", "logoText", "expiresAt"):
        return head
    if head == "colors" and len(parts) > 1:
        return f"color-{parts[1]}"
    if head in ("platforms", "locations") and len(parts) == 1:
        return head
    if head == "platforms":
        return "platforms"
    if head == "images" and len(parts) > 1:
        return f"img-{parts[1]}"
    if head == "barcode":
        return f"barcode-{parts[1]}" if len(parts) > 1 else "barcode-format"
    if head == "config" and len(parts) >= 3:
        if len(parts) == 3:
            return f"group-{parts[2]}"
        if len(parts) >= 5:
            return f"f-{parts[2]}-{parts[3]}-{parts[4]}"
        return f"f-{parts[2]}-{parts[3]}-key"
    if head == "event":
        if len(parts) == 1:
            return "event-name"
        if parts[1] == "venue":
            return f"event-venue_{parts[2]}" if len(parts) > 2 else "event-venue_name"
        return f"event-{parts[1]}"
    if head == "locations" and len(parts) >= 3:
        return f"loc-{parts[1]}-{parts[2]}"
    return ""


def place(issues: list[dict[str, str]]) -> tuple[dict[str, str], list[str]]:
    """Issues by input name (first message wins) and every message for the summary."""
    by_input: dict[str, str] = {}
    for issue in issues:
        name = input_for(issue.get("path", ""))
        if name:
            by_input.setdefault(name, issue.get("message", ""))
    return by_input, [issue.get("message", "") for issue in issues]


def starter(template_type: str, organization_name: str, starts_at: str) -> dict[str, Any]:
    """The first revision of a new template: a design that already validates."""
    d: dict[str, Any] = {
        "schemaVersion": 1, "type": template_type,
        "description": "Event ticket" if template_type == "event_ticket" else "Membership card",
        "organizationName": organization_name[:64],
        "colors": {"background": "#1d2b53", "foreground": "#ffffff", "label": "#b8c4ff"},
        "platforms": {"apple": True, "google": True},
        "barcode": {"format": "qr"},
        "config": {"fields": {
            "primary": [{"key": "holder", "label": "Name", "binding": "perPass",
                         "required": True}],
            "secondary": [{"key": "number", "label": "Number", "binding": "perPass"}]}},
    }
    if template_type == "event_ticket":
        d["event"] = {"name": "Your event", "venue": {"name": "Venue"}, "startsAt": starts_at}
        d["config"]["fields"]["primary"][0].update(key="seat", label="Seat")
    return d
