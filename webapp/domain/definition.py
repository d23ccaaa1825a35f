"""Template definition schema v1: its vocabulary, and validation that lists every problem
(reading a definition is `definition_read`'s).

A definition is parsed JSON. `validate` never raises on any JSON value; it returns a list of
issues `{"path", "code", "message"}` where `path` is an RFC 6901 JSON Pointer into the
definition ("" is the root). Issues come in document order: by the position of the member or
item they point at, a member that is missing sorting after the members that are present
(missing members in schema order), and issues at one path in the order they were found.

Codes: required, invalid_type, invalid_value, too_short, too_long, too_many, unknown_member,
type_mismatch, invalid_color, no_platform, unknown_slot, unknown_placeholder,
conflicting_member, invalid_key, duplicate_key, invalid_change_message, not_allowed,
invalid_range, out_of_range, too_large, unknown_field.

Booleans are never numbers here: `true` is not an integer 1.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from datetime import datetime
from typing import TypeGuard

from webapp.domain import definition_kinds, enrollment, formats, translations

# No `footer`: Apple shows it on boarding passes only and Google has none (see `images`).
SLOTS: tuple[str, ...] = ("icon", "logo", "strip", "thumbnail", "background", "hero")
GROUPS: tuple[str, ...] = ("header", "primary", "secondary", "auxiliary", "back")
# Wallets set the front's limits; the back's keeps a definition (and its issues) bounded.
GROUP_LIMITS: dict[str, int] = {"header": 3, "primary": 1, "secondary": 4, "auxiliary": 4,
                                "back": 30}
BARCODE_FORMATS: tuple[str, ...] = ("qr", "pdf417", "aztec", "code128")
FIELD_FORMATS: tuple[str, ...] = ("text", "number", "date", "dateTime")
TEMPLATE_TYPES: tuple[str, ...] = ("generic", "event_ticket", "loyalty", "gift_card", "coupon")
# The types Apple shows as a store card or a coupon: icon, logo and strip, no thumbnail.
STORE_TYPES: tuple[str, ...] = ("loyalty", "gift_card", "coupon")
BINDINGS: tuple[str, ...] = ("shared", "perPass")
PLACEHOLDERS: tuple[str, ...] = ("{{shortId}}", "{{passId}}")
# Apple's event types (`PKEventType...`); Google event tickets have none.
EVENT_CATEGORIES: tuple[str, ...] = ("generic", "livePerformance", "movie", "sports",
                                     "conference", "convention", "workshop", "socialGathering")
# The parts of a seat a field can give (`event.seatFields`): Apple `seats`, Google `seatInfo`.
SEAT_PARTS: tuple[str, ...] = ("section", "row", "number", "gate")
MAX_VALUE_LENGTH = 500
MAX_LOCATIONS = 10
# A definition at its limits is about 30,000 characters of JSON; a larger one is refused with
# one issue before anything else is looked at, which bounds the work and the issues listed.
MAX_DEFINITION_CHARACTERS = 65_536
DEFAULT_BARCODE_VALUE = "{{shortId}}"

Issue = dict[str, str]
_Token = str | int
_Path = tuple[_Token, ...]
_Check = tuple[str, Callable[[object, _Path], object]]  # a member and its check

_COLOR = re.compile(r"#[0-9a-fA-F]{6}")
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)

# Members of each object: name -> required. Dict order is the order `required` issues take.
_ROOT = {
    "schemaVersion": True, "type": True, "description": True, "organizationName": True,
    "logoText": False, "colors": True, "platforms": True, "images": False, "barcode": False,
    "config": True, "event": False, "expiresAt": False, "locations": False,
    "redemption": False, "defaultLanguage": False, "translations": False,
    "loyalty": False, "giftCard": False, "offer": False, "enrollment": False,
}
_COLORS = {"background": True, "foreground": True, "label": False}
_PLATFORMS = {"apple": True, "google": True}
_BARCODE = {"format": True, "value": False, "perPass": False, "altText": False}
_CONFIG = {"fields": True}
_GROUPS = dict.fromkeys(GROUPS, False)
_FIELD = {
    "key": True, "label": True, "binding": True, "required": False, "value": False,
    "changeMessage": False, "format": False,
}
_EVENT = {"name": True, "venue": True, "startsAt": True, "endsAt": False, "doorsOpenAt": False,
          "category": False, "seatFields": False}
_VENUE = {"name": True, "address": False, "location": False}
_POINT = {"latitude": True, "longitude": True}
_SEAT_FIELDS = dict.fromkeys(SEAT_PARTS, False)
_LOCATION = {"latitude": True, "longitude": True, "relevantText": False}
_REDEMPTION = {"mode": True, "maxUses": False, "voidOnRedemption": False}
REDEMPTION_MODES: tuple[str, ...] = ("none", "single", "multiple")
MAX_USES = 100_000  # more than any membership or multi-entry ticket needs

_DATETIME_HINT = "a date and time with a timezone, like 2025-06-01T19:30:00+02:00"
# The root's text members: (name, shortest, longest).
_ROOT_TEXTS = (("description", 1, 200), ("organizationName", 1, 64), ("logoText", 0, 64))


def validate(definition: object, template_type: str) -> list[Issue]:
    """Every problem of `definition` for a template of `template_type`, in document order."""
    try:
        size = len(json.dumps(definition, ensure_ascii=False, separators=(",", ":"),
                              default=str))
    except (ValueError, RecursionError):  # not JSON (only Python callers): the checks say why
        size = 0
    if size > MAX_DEFINITION_CHARACTERS:
        return [{"path": "", "code": "too_large",
                 "message": f"The definition is {size:,} characters of JSON; it can be at most "
                            f"{MAX_DEFINITION_CHARACTERS:,}."}]
    checker = _Checker()
    checker.root(definition, template_type)
    return checker.result(definition)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_finite(value: int | float) -> bool:
    return not isinstance(value, float) or math.isfinite(value)


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "an unsupported value"


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _name(path: _Path) -> str:
    """A human name for a path: `config.fields.primary[0].key`."""
    if not path:
        return "The definition"
    out = ""
    for token in path:
        if isinstance(token, int):
            out += f"[{token}]"
        else:
            out += ("." if out else "") + _short(token)
    return out


def _pointer(path: _Path) -> str:
    return "".join("/" + str(token).replace("~", "~0").replace("/", "~1") for token in path)


def _token(key: object) -> str:
    # JSON object keys are strings; anything else (only possible from Python callers) is
    # named by its type so that a message never has to print an arbitrary value.
    return key if isinstance(key, str) else f"<{type(key).__name__} key>"


def _position(document: object, path: _Path,
              index: dict[int, dict[str, int]]) -> tuple[tuple[int, int], ...]:
    """Sort key for document order; a missing member sorts after its present siblings.

    `index` caches each object's member positions (by id) so that many issues in one big
    object stay linear.
    """
    key: list[tuple[int, int]] = []
    node = document
    for token in path:
        if isinstance(node, dict) and isinstance(token, str) and token in node:
            positions = index.get(id(node))
            if positions is None:
                positions = index[id(node)] = {name: i for i, name in enumerate(node)}
            key.append((0, positions[token]))
            node = node[token]
        elif isinstance(node, list) and isinstance(token, int) and 0 <= token < len(node):
            key.append((0, token))
            node = node[token]
        else:
            key.append((1, 0))
            break
    return tuple(key)


def _placeholders_list(names: list[str]) -> str:
    return ", ".join("{{" + _short(name, 20) + "}}" for name in names)


class _Checker:
    def __init__(self) -> None:
        self.found: list[tuple[_Path, str, str]] = []
        # Every field's key as text, valid or not (`config` gathers them; `event` reads them).
        self.field_keys: set[str] = set()

    # -- plumbing ---------------------------------------------------------------------------

    def add(self, path: _Path, code: str, message: str) -> None:
        self.found.append((path, code, message))

    def result(self, document: object) -> list[Issue]:
        index: dict[int, dict[str, int]] = {}
        ordered = sorted(self.found, key=lambda issue: _position(document, issue[0], index))
        return [{"path": _pointer(path), "code": code, "message": message}
                for path, code, message in ordered]

    def wrong_type(self, path: _Path, expected: str, value: object) -> None:
        self.add(path, "invalid_type",
                 f"{_name(path)} must be {expected}, not {_json_type(value)}.")

    def expect_object(self, value: object, path: _Path) -> dict | None:
        if isinstance(value, dict):
            return value
        self.wrong_type(path, "an object", value)
        return None

    def expect_array(self, value: object, path: _Path) -> list | None:
        if isinstance(value, list):
            return value
        self.wrong_type(path, "an array", value)
        return None

    def members(self, obj: dict, path: _Path, known: dict[str, bool], hint: str) -> None:
        """Issue each unknown member and each missing required one."""
        for key in obj:
            if key not in known:
                member = (*path, _token(key))
                self.add(member, "unknown_member", f"{_name(member)} is not allowed: {hint}.")
        for key, required in known.items():
            if required and key not in obj:
                member = (*path, key)
                self.add(member, "required", f"{_name(member)} is required.")

    def expect_string(self, obj: dict, key: str, path: _Path, low: int, high: int) -> str | None:
        """The member as a string (even if its length is wrong), or None if it is not one."""
        member = (*path, key)
        value = obj[key]
        if not isinstance(value, str):
            self.wrong_type(member, "a string", value)
            return None
        if len(value) < low:
            message = ("must not be empty" if low == 1
                       else f"must be at least {low} characters")
            self.add(member, "too_short", f"{_name(member)} {message}.")
        elif len(value) > high:
            self.add(member, "too_long", f"{_name(member)} must be at most {high} characters.")
        return value

    def expect_boolean(self, obj: dict, key: str, path: _Path) -> bool | None:
        value = obj[key]
        if isinstance(value, bool):
            return value
        self.wrong_type((*path, key), "true or false", value)
        return None

    def choice(self, obj: dict, key: str, path: _Path, options: tuple[str, ...]) -> str | None:
        member = (*path, key)
        value = obj[key]
        if not isinstance(value, str):
            self.wrong_type(member, "a string", value)
            return None
        if value not in options:
            self.add(member, "invalid_value",
                     f"{_name(member)} must be one of {', '.join(options)}.")
            return None
        return value

    def moment(self, value: object, member: _Path) -> datetime | None:
        """A date and time with a timezone (None: not one)."""
        if not isinstance(value, str):
            self.wrong_type(member, "a string", value)
            return None
        parsed = formats.parse_datetime(value)
        if parsed is None:
            self.add(member, "invalid_value", f"{_name(member)} must be {_DATETIME_HINT}.")
        return parsed

    def placeholders(self, text: str, path: _Path) -> None:
        unknown = [name for name in _PLACEHOLDER.findall(text)
                   if "{{" + name + "}}" not in PLACEHOLDERS]
        if unknown:
            self.add(path, "unknown_placeholder",
                     f"{_name(path)} uses {_placeholders_list(unknown)}; only "
                     f"{' and '.join(PLACEHOLDERS)} can be used.")

    # -- the schema -------------------------------------------------------------------------

    def root(self, definition: object, template_type: str) -> None:
        """The whole definition: each member by its own step, in schema order, then its
        translations."""
        if not isinstance(definition, dict):
            self.add((), "invalid_type",
                     f"The definition must be an object, not {_json_type(definition)}.")
            return
        d = definition
        self.members(d, (), _ROOT, "it is not a member of definition schema v1")
        self.schema_version(d)
        kind = self.template_kind(d, template_type)
        self.texts(d)
        self.each_present(d, (
            ("colors", self.colors), ("platforms", self.platforms),
            ("images", lambda value, path: self.images(value, path, kind)),
            ("barcode", self.barcode), ("config", self.config)))
        self.event_member(d, kind)  # after config: it reads the field keys
        definition_kinds.check(self, d, kind)
        enrollment.check(self, d)  # after config: it reads the perPass fields
        self.each_present(d, (("expiresAt", self.moment), ("locations", self.locations),
                              ("redemption", self.redemption)))
        for path, code, message in translations.issues(d, kind):
            self.add(path, code, message)

    def each_present(self, d: dict, checks: tuple[_Check, ...]) -> None:
        """Each member `d` has of `checks`, by its check, in that order."""
        for key, check in checks:
            if key in d:
                check(d[key], (key,))

    def schema_version(self, d: dict) -> None:
        """schemaVersion: the integer 1."""
        if "schemaVersion" not in d:
            return
        version = d["schemaVersion"]
        if not _is_int(version):
            self.wrong_type(("schemaVersion",), "the integer 1", version)
        elif version != 1:
            self.add(("schemaVersion",), "invalid_value", "schemaVersion must be 1.")

    def template_kind(self, d: dict, template_type: str) -> str | None:
        """type, which must be the template's; the type the other checks go by."""
        # The template's type decides whether event belongs; a definition that says otherwise
        # gets one type_mismatch rather than a second, misleading issue about event.
        kind = template_type if template_type in TEMPLATE_TYPES else None
        if "type" in d:
            given = self.choice(d, "type", (), TEMPLATE_TYPES)
            if given is not None and given != template_type:
                expected = _short(template_type) if isinstance(template_type, str) else "?"
                self.add(("type",), "type_mismatch",
                         f"type is {given} but the template is {expected}.")
            kind = kind or given
        return kind

    def texts(self, d: dict) -> None:
        """description, organizationName and logoText: strings of their lengths."""
        for key, low, high in _ROOT_TEXTS:
            if key in d:
                self.expect_string(d, key, (), low, high)

    def event_member(self, d: dict, kind: str | None) -> None:
        """event: required on an event ticket, not allowed on a generic template."""
        if "event" not in d:
            if kind == "event_ticket":
                self.add(("event",), "required",
                         "event is required for an event_ticket template.")
        elif kind is not None and kind != "event_ticket":
            self.add(("event",), "not_allowed", "event is only allowed on event_ticket templates.")
        else:
            self.event(d["event"], ("event",), self.field_keys)

    def colors(self, value: object, path: _Path) -> None:
        d = self.expect_object(value, path)
        if d is None:
            return
        self.members(d, path, _COLORS, "colors has background, foreground and label")
        for key in _COLORS:
            if key not in d:
                continue
            member = (*path, key)
            color = d[key]
            if not isinstance(color, str):
                self.wrong_type(member, "a string", color)
            elif _COLOR.fullmatch(color) is None:
                self.add(member, "invalid_color",
                         f"{_name(member)} must be a colour like #1a2b3c.")

    def platforms(self, value: object, path: _Path) -> None:
        d = self.expect_object(value, path)
        if d is None:
            return
        self.members(d, path, _PLATFORMS, "platforms has apple and google")
        apple = self.expect_boolean(d, "apple", path) if "apple" in d else None
        google = self.expect_boolean(d, "google", path) if "google" in d else None
        if apple is False and google is False:
            self.add(path, "no_platform",
                     "At least one of platforms.apple and platforms.google must be true.")

    def images(self, value: object, path: _Path, kind: str | None) -> None:
        d = self.expect_object(value, path)
        if d is None:
            return
        for key, ref in d.items():
            member = (*path, _token(key))
            if key == "footer":
                self.add(member, "not_allowed",
                         "images.footer is not allowed: Apple Wallet shows a footer image only "
                         "on boarding passes, which this service does not issue, and Google "
                         "Wallet has no footer image.")
            elif key not in SLOTS:
                self.add(member, "unknown_slot",
                         f"{_name(member)} is not an image slot; use {', '.join(SLOTS)}.")
            elif not isinstance(ref, str) or not ref.startswith("asset_"):
                self.add(member, "invalid_value",
                         f"{_name(member)} must be an asset ID (asset_...).")
        valid = {slot for slot, ref in d.items()
                 if slot in SLOTS and isinstance(ref, str) and ref.startswith("asset_")}
        self.unshown_images(valid, path, kind)

    def unshown_images(self, d: set[str], path: _Path, kind: str | None) -> None:
        """Issue each image no wallet would show for this template type."""
        if kind == "generic" and "background" in d:
            self.add((*path, "background"), "not_allowed",
                     "images.background is not allowed on a generic template: Apple shows a "
                     "background image only on event tickets and Google Wallet has none.")
        if kind == "generic" and "strip" in d and "hero" in d:
            self.add((*path, "strip"), "conflicting_member",
                     "images.strip cannot be given with images.hero on a generic template: "
                     "Apple's generic style has no strip and Google Wallet shows the hero.")
        if kind in STORE_TYPES:
            for slot in ("background", "thumbnail"):
                if slot in d:
                    self.add((*path, slot), "not_allowed",
                             f"images.{slot} is not allowed on a {kind} template: Apple's "
                             f"store card and coupon styles show no {slot} and Google Wallet "
                             f"has none.")
        if kind == "event_ticket" and "strip" in d:
            for slot in ("background", "thumbnail"):
                if slot in d:
                    self.add((*path, slot), "conflicting_member",
                             f"images.{slot} cannot be given with images.strip on an event "
                             f"ticket: Apple shows either a strip or a background and "
                             f"thumbnail, and Google Wallet has no {slot} image.")

    def barcode(self, value: object, path: _Path) -> None:
        d = self.expect_object(value, path)
        if d is None:
            return
        self.members(d, path, _BARCODE, "barcode has format, value, perPass and altText")
        if "format" in d:
            self.choice(d, "format", path, BARCODE_FORMATS)
        per_pass = self.expect_boolean(d, "perPass", path) if "perPass" in d else False
        if "value" in d:
            member = (*path, "value")
            if per_pass:
                self.add(member, "conflicting_member",
                         "barcode.value cannot be given when barcode.perPass is true: "
                         "each pass brings its own value.")
            else:
                text = self.expect_string(d, "value", path, 1, MAX_VALUE_LENGTH)
                if text is not None:
                    self.placeholders(text, member)
        if "altText" in d:
            text = self.expect_string(d, "altText", path, 0, MAX_VALUE_LENGTH)
            if text is not None:
                self.placeholders(text, (*path, "altText"))

    def config(self, value: object, path: _Path) -> None:
        d = self.expect_object(value, path)
        if d is None:
            return
        self.members(d, path, _CONFIG, "config has only fields")
        if "fields" not in d:
            return
        groups_path = (*path, "fields")
        groups = self.expect_object(d["fields"], groups_path)
        if groups is None:
            return
        self.members(groups, groups_path, _GROUPS,
                     f"field groups are {', '.join(GROUPS)}")
        seen: set[str] = set()
        for group, items in groups.items():
            if group not in GROUPS:
                continue
            group_path = (*groups_path, group)
            array = self.expect_array(items, group_path)
            if array is None:
                continue
            self.field_keys.update(str(item.get("key")) for item in array
                                   if isinstance(item, dict))
            limit = GROUP_LIMITS[group]
            if len(array) > limit:  # the fields past the limit are not looked at
                noun = "field" if limit == 1 else "fields"
                self.add(group_path, "too_many",
                         f"{_name(group_path)} can hold at most {limit} {noun}.")
            for index, item in enumerate(array[:limit]):
                self.field(item, (*group_path, index), seen)

    def field(self, value: object, path: _Path, seen: set[str]) -> None:
        d = self.expect_object(value, path)
        if d is None:
            return
        self.members(d, path, _FIELD,
                     "a field has key, label, binding, required, value, changeMessage "
                     "and format")
        if "key" in d:
            key_path = (*path, "key")
            key = d["key"]
            if not isinstance(key, str):
                self.wrong_type(key_path, "a string", key)
            elif _KEY.fullmatch(key) is None:
                self.add(key_path, "invalid_key",
                         f"{_name(key_path)} must start with a letter and have only letters, "
                         "digits and _ (at most 64 characters).")
            elif key in seen:
                self.add(key_path, "duplicate_key",
                         f"{_name(key_path)} is {key}, which an earlier field already uses.")
            else:
                seen.add(key)
        if "label" in d:
            self.expect_string(d, "label", path, 0, 64)
        binding = self.choice(d, "binding", path, BINDINGS) if "binding" in d else None
        if "required" in d:
            required = self.expect_boolean(d, "required", path)
            if required and binding == "shared":
                self.add((*path, "required"), "invalid_value",
                         f"{_name((*path, 'required'))} can only be true on a perPass field.")
        field_format = self.choice(d, "format", path, FIELD_FORMATS) if "format" in d else "text"
        if "value" in d:
            if binding == "perPass":
                self.add((*path, "value"), "conflicting_member",
                         f"{_name((*path, 'value'))} cannot be given on a perPass field: "
                         "each pass brings its own value.")
            else:
                self.shared_value(d["value"], (*path, "value"),
                                  field_format if binding == "shared" else None)
        elif binding == "shared":
            self.add((*path, "value"), "required",
                     f"{_name((*path, 'value'))} is required on a shared field.")
        if "changeMessage" in d:
            text = self.expect_string(d, "changeMessage", path, 0, 200)
            if text is not None and "%@" not in text:
                member = (*path, "changeMessage")
                self.add(member, "invalid_change_message",
                         f"{_name(member)} must contain %@ where the new value goes.")

    def shared_value(self, value: object, path: _Path, field_format: str | None) -> None:
        """A shared field's value: text or a number, and matching the field's format."""
        name = _name(path)
        if isinstance(value, str):
            if not value:
                self.add(path, "too_short", f"{name} must not be empty.")
                return
            if len(value) > MAX_VALUE_LENGTH:
                self.add(path, "too_long",
                         f"{name} must be at most {MAX_VALUE_LENGTH} characters.")
                return
        elif _is_number(value):
            if not _is_finite(value):
                self.add(path, "invalid_value", f"{name} must be a finite number.")
                return
        else:
            self.wrong_type(path, "a string or a number", value)
            return
        if field_format == "number":
            if isinstance(value, str) and not formats.is_numeric_text(value):
                self.add(path, "invalid_value", f"{name} must be a number (format number).")
        elif field_format == "date":
            if not isinstance(value, str) or (
                    formats.parse_date(value) is None and formats.parse_datetime(value) is None):
                self.add(path, "invalid_value",
                         f"{name} must be a date like 2025-06-01 or {_DATETIME_HINT}.")
        elif field_format == "dateTime" and (
                not isinstance(value, str) or formats.parse_datetime(value) is None):
            self.add(path, "invalid_value", f"{name} must be {_DATETIME_HINT}.")

    def event(self, value: object, path: _Path, field_keys: set[str]) -> None:
        d = self.expect_object(value, path)
        if d is None:
            return
        self.members(d, path, _EVENT,
                     "event has name, venue, startsAt, endsAt, doorsOpenAt, category and "
                     "seatFields")
        if "category" in d:
            self.choice(d, "category", path, EVENT_CATEGORIES)
        if "seatFields" in d:
            self.seat_fields(d["seatFields"], (*path, "seatFields"), field_keys)
        if "name" in d:
            self.expect_string(d, "name", path, 1, 200)
        if "venue" in d:
            venue_path = (*path, "venue")
            venue = self.expect_object(d["venue"], venue_path)
            if venue is not None:
                self.members(venue, venue_path, _VENUE,
                             "a venue has name, address and location")
                if "name" in venue:
                    self.expect_string(venue, "name", venue_path, 1, 200)
                if "address" in venue:
                    self.expect_string(venue, "address", venue_path, 0, 500)
                if "location" in venue:
                    point_path = (*venue_path, "location")
                    point = self.expect_object(venue["location"], point_path)
                    if point is not None:
                        self.members(point, point_path, _POINT,
                                     "a venue location has latitude and longitude")
                        self.coordinates(point, point_path)
        starts = self.moment(d["startsAt"], (*path, "startsAt")) if "startsAt" in d else None
        ends = self.moment(d["endsAt"], (*path, "endsAt")) if "endsAt" in d else None
        doors = (self.moment(d["doorsOpenAt"], (*path, "doorsOpenAt")) if "doorsOpenAt" in d
                 else None)
        if starts is not None and ends is not None and not ends > starts:
            self.add((*path, "endsAt"), "invalid_range",
                     "event.endsAt must be after event.startsAt.")
        if starts is not None and doors is not None and doors > starts:
            self.add((*path, "doorsOpenAt"), "invalid_range",
                     "event.doorsOpenAt must not be after event.startsAt.")

    def redemption(self, value: object, path: _Path) -> None:
        d = self.expect_object(value, path)
        if d is None:
            return
        self.members(d, path, _REDEMPTION, "redemption has mode, maxUses and voidOnRedemption")
        mode = self.choice(d, "mode", path, REDEMPTION_MODES) if "mode" in d else None
        if "maxUses" in d:
            member = (*path, "maxUses")
            number = d["maxUses"]
            if mode is not None and mode != "multiple":
                self.add(member, "not_allowed",
                         "redemption.maxUses is only allowed with mode multiple.")
            elif not _is_int(number):
                self.wrong_type(member, "an integer", number)
            elif not 1 <= number <= MAX_USES:
                self.add(member, "out_of_range",
                         f"redemption.maxUses must be between 1 and {MAX_USES:,}.")
        if "voidOnRedemption" in d:
            void = self.expect_boolean(d, "voidOnRedemption", path)
            if void is not None and mode is not None and mode != "single":
                self.add((*path, "voidOnRedemption"), "not_allowed",
                         "redemption.voidOnRedemption is only allowed with mode single.")

    def seat_fields(self, value: object, path: _Path, field_keys: set[str]) -> None:
        """`event.seatFields`: seat part -> the key of the field that gives it."""
        d = self.expect_object(value, path)
        if d is None:
            return
        self.members(d, path, _SEAT_FIELDS, f"seatFields has {', '.join(SEAT_PARTS)}")
        for part in SEAT_PARTS:
            if part not in d:
                continue
            member = (*path, part)
            key = d[part]
            if not isinstance(key, str):
                self.wrong_type(member, "a field key", key)
            elif key not in field_keys:
                self.add(member, "unknown_field",
                         f"{_name(member)} is {_short(key)}, which no field of config.fields "
                         "has as its key.")

    def coordinates(self, d: dict, path: _Path) -> None:
        """The latitude and longitude members of a location, when present."""
        for key, bound in (("latitude", 90), ("longitude", 180)):
            if key not in d:
                continue
            member = (*path, key)
            number = d[key]
            if not _is_number(number):
                self.wrong_type(member, "a number", number)
            elif not _is_finite(number) or not -bound <= number <= bound:
                self.add(member, "out_of_range",
                         f"{_name(member)} must be between -{bound} and {bound}.")

    def locations(self, value: object, path: _Path) -> None:
        array = self.expect_array(value, path)
        if array is None:
            return
        if len(array) > MAX_LOCATIONS:  # the locations past the limit are not looked at
            self.add(path, "too_many", f"locations can hold at most {MAX_LOCATIONS} locations.")
        for index, item in enumerate(array[:MAX_LOCATIONS]):
            item_path = (*path, index)
            d = self.expect_object(item, item_path)
            if d is None:
                continue
            self.members(d, item_path, _LOCATION,
                         "a location has latitude, longitude and relevantText")
            self.coordinates(d, item_path)
            if "relevantText" in d:
                self.expect_string(d, "relevantText", item_path, 0, 200)
