"""`pass.json` of an Apple Wallet pass, rendered from a template definition and a pass's
values. Pure: a dict in, a dict out.

Mapping (docs/decisions.md "Apple Wallet"): template `generic` -> style `generic`,
`event_ticket` -> `eventTicket`, `loyalty` and `gift_card` -> `storeCard`, `coupon` ->
`coupon` (`store_card`); fields by group with their keys; `#rrggbb` colours as
`rgb(r, g, b)`; the barcode with the template's format; the event as `semantics`,
`relevantDate` and back fields; `changeMessage` only on the fields an update changed in
`notify` mode (never in `silent` mode, never on a void).

iOS 18 event tickets: the semantic tags of Apple's event ticket style (event type, venue
location, doors, seats from the fields `event.seatFields` names) and, when the template has
the images that style draws, `preferredStyleSchemes`; older iOS shows the classic layout
from the same keys.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, TypeGuard

from webapp.wallets import seats
from webapp.wallets.apple import store_card

STYLES = {"generic": "generic", "event_ticket": "eventTicket", **store_card.STYLES}
GROUP_KEYS = {"header": "headerFields", "primary": "primaryFields",
              "secondary": "secondaryFields", "auxiliary": "auxiliaryFields",
              "back": "backFields"}
LIMITS = {"headerFields": 3, "primaryFields": 1, "secondaryFields": 4, "auxiliaryFields": 4}
# Generic passes, store cards and coupons with a square barcode show at most 4 secondary +
# auxiliary fields.
SQUARE_COMBINED_LIMIT = 4
SQUARE_LIMITED_STYLES = ("generic", "storeCard", "coupon")
BARCODE_FORMATS = {"qr": "PKBarcodeFormatQR", "pdf417": "PKBarcodeFormatPDF417",
                   "aztec": "PKBarcodeFormatAztec", "code128": "PKBarcodeFormatCode128"}
SQUARE_BARCODES = ("qr", "aztec")
# Apple's event ticket style draws the event's artwork (our `background`) under its logo.
POSTER_IMAGES = ("background", "logo")
POSTER_SCHEMES = ["posterEventTicket", "eventTicket"]
# That style also wants team abbreviations (sports) or performer names (live performances),
# which definitions do not carry: those events keep the classic layout.
CLASSIC_ONLY_CATEGORIES = ("sports", "livePerformance")
SEAT_SEMANTICS = {"section": "seatSection", "row": "seatRow", "number": "seatNumber"}
_COLOR = re.compile(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})")
_DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class PassContent:
    """What a pass contributes beyond its template's design."""

    serial_number: str
    pass_type_identifier: str
    team_identifier: str
    field_values: Mapping[str, Any]
    barcode_message: str | None = None
    barcode_alt_text: str | None = None
    web_service_url: str | None = None
    authentication_token: str | None = None
    voided: bool = False
    notify_keys: frozenset[str] = field(default_factory=frozenset)
    # The pass's own dates (RFC 3339 with an offset) over the template's.
    expiration_date: str | None = None
    relevant_date: str | None = None
    checked_in_at: datetime | None = None  # the pass's last redemption (check-in)
    holder_name: str | None = None  # an event ticket's `semantics.attendeeName`
    balance: store_card.Balance | None = None  # a loyalty or gift card's balance
    tier: store_card.TierShown | None = None  # a loyalty card's tier
    # The last message sent to the holder (`header`, `body`), first on the back.
    message: Mapping[str, str] | None = None


def render(definition: Mapping[str, Any], content: PassContent) -> dict[str, Any]:
    """The pass.json dictionary for a pass of this definition."""
    style = STYLES.get(str(definition.get("type")), "generic")
    colors = store_card.colors(definition.get("colors") or {}, content.tier)
    doc: dict[str, Any] = {
        "formatVersion": 1,
        "passTypeIdentifier": content.pass_type_identifier,
        "teamIdentifier": content.team_identifier,
        "serialNumber": content.serial_number,
        "organizationName": str(definition.get("organizationName") or ""),
        "description": str(definition.get("description") or ""),
    }
    if definition.get("logoText"):
        doc["logoText"] = str(definition["logoText"])
    for name, source in (("backgroundColor", colors.get("background")),
                         ("foregroundColor", colors.get("foreground")),
                         ("labelColor", colors.get("label") or colors.get("foreground"))):
        if (rgb := css_rgb(source)) is not None:
            doc[name] = rgb
    if content.web_service_url and content.authentication_token and not content.voided:
        # A voided pass carries neither, so wallets stop asking for updates of it.
        doc["webServiceURL"] = content.web_service_url
        doc["authenticationToken"] = content.authentication_token
    barcode = _barcode(definition.get("barcode"), content)
    if barcode is not None:
        doc["barcodes"] = [barcode]
    _dates(doc, definition, style)
    _own_dates(doc, content)
    _event_semantics(doc, definition, content, style)
    if locations := _locations(definition.get("locations")):
        doc["locations"] = locations
    if content.voided:
        doc["voided"] = True
    doc[style] = _fields(definition, content, style, barcode)
    return doc


def css_rgb(value: object) -> str | None:
    """`#rrggbb` as Apple's `rgb(r, g, b)`; None for anything else."""
    match = _COLOR.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    red, green, blue = (int(part, 16) for part in match.groups())
    return f"rgb({red}, {green}, {blue})"


def _fields(definition: Mapping[str, Any], content: PassContent, style: str,
            barcode: dict[str, Any] | None) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = {name: [] for name in GROUP_KEYS.values()}
    config = (definition.get("config") or {}).get("fields") or {}
    seen: set[str] = set()
    for group, apple_group in GROUP_KEYS.items():
        for spec in config.get(group) or []:
            if not isinstance(spec, dict) or spec.get("key") in seen:
                continue
            item = _field(spec, content, back=group == "back")
            if item is not None:
                seen.add(item["key"])
                groups[apple_group].append(item)
    notify = content.notify_keys if not content.voided else frozenset()
    store_card.add_fields(groups, definition, content.balance, content.tier, notify)
    overflow: list[dict[str, Any]] = []
    for name, limit in LIMITS.items():  # more than a wallet shows: keep it on the back
        overflow += groups[name][limit:]
        del groups[name][limit:]
    square = barcode is not None and barcode["format"] in (
        BARCODE_FORMATS[f] for f in SQUARE_BARCODES)
    if style in SQUARE_LIMITED_STYLES and square:
        room = max(0, SQUARE_COMBINED_LIMIT - len(groups["secondaryFields"]))
        overflow += groups["auxiliaryFields"][room:]
        del groups["auxiliaryFields"][room:]
    groups["backFields"] = (_message_back(content) + overflow + groups["backFields"]
                            + _event_back(definition, style) + _checked_in_back(content))
    return {name: items for name, items in groups.items() if items}


def _field(spec: Mapping[str, Any], content: PassContent, *, back: bool
           ) -> dict[str, Any] | None:
    key = str(spec.get("key") or "")
    if not key:
        return None
    raw = spec.get("value") if spec.get("binding") == "shared" else content.field_values.get(key)
    if raw is None or raw == "":
        return None
    item: dict[str, Any] = {"key": key, "label": str(spec.get("label") or "")}
    item.update(_value(raw, str(spec.get("format") or "text")))
    if key in content.notify_keys and not content.voided:
        item["changeMessage"] = change_message(spec)
    if back:
        item["dataDetectorTypes"] = ["PKDataDetectorTypeLink", "PKDataDetectorTypePhoneNumber"]
    return item


def change_message(spec: Mapping[str, Any]) -> str:
    """The field's own change message, else `<label>: %@` (a `%` in a label is escaped)."""
    own = spec.get("changeMessage")
    if isinstance(own, str) and "%@" in own:
        return own
    label = str(spec.get("label") or "").replace("%", "%%")
    return f"{label}: %@" if label else "%@"


def _value(raw: Any, fmt: str) -> dict[str, Any]:
    """Value and formatting keys: numbers as JSON numbers, dates as ISO 8601 date-times."""
    if fmt == "number":
        number = _number(raw)
        if number is not None:
            return {"value": number, "numberStyle": "PKNumberStyleDecimal"}
    if fmt in ("date", "dateTime") and isinstance(raw, str):
        if _DATE_ONLY.fullmatch(raw):
            try:
                day = date.fromisoformat(raw)
            except ValueError:
                return {"value": raw}
            return {"value": f"{day.isoformat()}T00:00:00Z", "dateStyle": "PKDateStyleMedium",
                    "timeStyle": "PKDateStyleNone", "ignoresTimeZone": True}
        moment = parse_moment(raw)
        if moment is not None:
            return {"value": w3c(moment), "dateStyle": "PKDateStyleMedium",
                    "timeStyle": "PKDateStyleShort" if fmt == "dateTime" else "PKDateStyleNone"}
    return {"value": str(raw)}


def _number(raw: Any) -> int | float | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    try:
        number = float(raw)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(number):
        return None
    return int(number) if number.is_integer() and abs(number) < 2**53 else number


def parse_moment(value: object) -> datetime | None:
    """An aware datetime from ISO 8601 with an offset or Z; None otherwise."""
    if not isinstance(value, str) or "T" not in value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("z", "Z"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def w3c(moment: datetime) -> str:
    """A W3C date-time Apple accepts: seconds precision, `Z` or `+hh:mm`."""
    text = moment.replace(microsecond=0).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _barcode(spec: object, content: PassContent) -> dict[str, Any] | None:
    if not isinstance(spec, dict) or not content.barcode_message:
        return None
    barcode = {"format": BARCODE_FORMATS.get(str(spec.get("format")), "PKBarcodeFormatQR"),
               "message": content.barcode_message, "messageEncoding": "iso-8859-1"}
    if content.barcode_alt_text:
        barcode["altText"] = content.barcode_alt_text
    return barcode


def _dates(doc: dict[str, Any], definition: Mapping[str, Any], style: str) -> None:
    expires = parse_moment(definition.get("expiresAt"))
    if expires is not None:
        doc["expirationDate"] = w3c(expires)
    event = definition.get("event")
    if style != "eventTicket" or not isinstance(event, dict):
        return
    starts, ends = parse_moment(event.get("startsAt")), parse_moment(event.get("endsAt"))
    venue = _member(event, "venue")
    semantics: dict[str, Any] = {"eventType": event_type(event.get("category"))}
    if event.get("name"):
        semantics["eventName"] = str(event["name"])
    if venue.get("name"):
        semantics["venueName"] = str(venue["name"])
    if starts is not None:
        doc["relevantDate"] = w3c(starts)
        semantics["eventStartDate"] = w3c(starts)
        if ends is not None:
            semantics["eventEndDate"] = w3c(ends)
            doc["relevantDates"] = [{"startDate": w3c(starts), "endDate": w3c(ends)}]
        else:  # Apple requires `endDate` with `startDate`: without an end, the start moment
            doc["relevantDates"] = [relevant_moment(starts)]
    doc["semantics"] = semantics


def relevant_moment(moment: datetime) -> dict[str, str]:
    """A `relevantDates` entry for one moment, under the key each iOS reads: `date` (iOS 26)
    and `relevantDate` (iOS 18 to 25, renamed `date` in iOS 26)."""
    return {"date": w3c(moment), "relevantDate": w3c(moment)}


def _own_dates(doc: dict[str, Any], content: PassContent) -> None:
    """The pass's own dates over the template's: `expirationDate`; `relevantDate` (iOS
    before 18) and `relevantDates` with one moment (iOS 18 deprecates `relevantDate`)."""
    expires = parse_moment(content.expiration_date)
    if expires is not None:
        doc["expirationDate"] = w3c(expires)
    relevant = parse_moment(content.relevant_date)
    if relevant is not None:
        doc["relevantDate"] = w3c(relevant)
        doc["relevantDates"] = [relevant_moment(relevant)]


def event_type(category: object) -> str:
    """Apple's `PKEventType...` for an `event.category` (generic when there is none)."""
    name = category if isinstance(category, str) and category else "generic"
    return "PKEventType" + name[0].upper() + name[1:]


def _event_semantics(doc: dict[str, Any], definition: Mapping[str, Any],
                     content: PassContent, style: str) -> None:
    """The venue's place, the doors and the seat; the poster style when its images exist."""
    event = definition.get("event")
    if style != "eventTicket" or not isinstance(event, dict):
        return
    semantics = doc.setdefault("semantics", {})
    location = _member(_member(event, "venue"), "location")
    lat, lon = location.get("latitude"), location.get("longitude")
    if _is_number(lat) and _is_number(lon):
        semantics["venueLocation"] = {"latitude": float(lat), "longitude": float(lon)}
    doors = parse_moment(event.get("doorsOpenAt"))
    if doors is not None:
        semantics["venueDoorsOpenDate"] = w3c(doors)
    seat = seats.seat(definition, content.field_values)
    apple_seat = {SEAT_SEMANTICS[part]: text for part, text in seat.items()
                  if part in SEAT_SEMANTICS}
    if apple_seat:
        semantics["seats"] = [apple_seat]
    if "gate" in seat:
        semantics["venueEntranceGate"] = seat["gate"]
    if content.holder_name:
        semantics["attendeeName"] = content.holder_name
    if wants_poster(definition):
        doc["preferredStyleSchemes"] = list(POSTER_SCHEMES)


def wants_poster(definition: Mapping[str, Any]) -> bool:
    """Whether an event ticket of this definition asks for Apple's event ticket style."""
    images = _member(definition, "images")
    event = _member(definition, "event")
    return (all(images.get(slot) for slot in POSTER_IMAGES) and not images.get("strip")
            and event.get("category") not in CLASSIC_ONLY_CATEGORIES)


def _event_back(definition: Mapping[str, Any], style: str) -> list[dict[str, Any]]:
    """The event's name, venue and times on the back (keys no template field can have)."""
    event = definition.get("event")
    if style != "eventTicket" or not isinstance(event, dict):
        return []
    venue = _member(event, "venue")
    out = []
    if event.get("name"):
        out.append({"key": "event.name", "label": "Event", "value": str(event["name"])})
    place = ", ".join(str(v) for v in (venue.get("name"), venue.get("address")) if v)
    if place:
        out.append({"key": "event.venue", "label": "Venue", "value": place})
    for key, label in (("doorsOpenAt", "Doors open"), ("startsAt", "Starts"),
                       ("endsAt", "Ends")):
        moment = parse_moment(event.get(key))
        if moment is not None:
            out.append({"key": f"event.{key}", "label": label, "value": w3c(moment),
                        "dateStyle": "PKDateStyleFull", "timeStyle": "PKDateStyleShort"})
    return out


MESSAGE_KEY = "pass.message"  # a key no template field can have; also the change's key


def _message_back(content: PassContent) -> list[dict[str, Any]]:
    """The last message on the back: its header as the label, its body as the value; with a
    change message (the lock screen's text) in the version that sends it."""
    if not content.message:
        return []
    header = str(content.message.get("header") or "")
    item = {"key": MESSAGE_KEY, "label": header, "value": str(content.message.get("body") or ""),
            "dataDetectorTypes": ["PKDataDetectorTypeLink", "PKDataDetectorTypePhoneNumber"]}
    if MESSAGE_KEY in content.notify_keys and not content.voided:
        item["changeMessage"] = f"{header.replace('%', '%%')}: %@"
    return [item]


def _checked_in_back(content: PassContent) -> list[dict[str, Any]]:
    """When the pass was last checked in, on the back (a key no template field can have)."""
    if content.checked_in_at is None:
        return []
    return [{"key": "redemption.checkedIn", "label": "Checked in",
             "value": w3c(content.checked_in_at), "dateStyle": "PKDateStyleMedium",
             "timeStyle": "PKDateStyleShort"}]


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _member(obj: Mapping[str, Any], key: str) -> dict[str, Any]:
    """The member `key` when it is an object; {} when it is absent or anything else."""
    value = obj.get(key)
    return value if isinstance(value, dict) else {}


def _locations(value: object) -> list[dict[str, Any]]:
    out = []
    for item in value if isinstance(value, list) else []:
        if not isinstance(item, dict):
            continue
        lat, lon = item.get("latitude"), item.get("longitude")
        if not (_is_number(lat) and _is_number(lon)):
            continue
        location: dict[str, Any] = {"latitude": float(lat), "longitude": float(lon)}
        if item.get("relevantText"):
            location["relevantText"] = str(item["relevantText"])
        out.append(location)
    return out[:10]
