"""The form state, read from a stored definition or from the inputs the browser posted."""

from __future__ import annotations

import re
from typing import Any

from werkzeug.datastructures import MultiDict

from webapp.dashboard.designer import languages
from webapp.dashboard.designer.state import (
    BarcodeInputs,
    CardInputs,
    ColorInputs,
    EventInputs,
    FieldRow,
    FormState,
    LocationRow,
    RedemptionInputs,
)
from webapp.domain import definition as rules
from webapp.domain import definition_read, formats

_ROW = re.compile(r"^f-([a-z]+)-(\d+)-key$")
_LOC = re.compile(r"^loc-(\d+)-latitude$")


# ---- from a stored definition -------------------------------------------------------------

def from_definition(definition: dict[str, Any], name: str, revision: int) -> FormState:
    """The form state showing a stored definition."""
    d = definition
    event, event_tz = _event_inputs(d.get("event") or {})
    expires, expires_tz = _local(d.get("expiresAt"))
    return {
        "name": name, "revision": revision, "description": d.get("description", ""),
        "organizationName": d.get("organizationName", ""), "logoText": d.get("logoText", ""),
        "colors": _color_inputs(d.get("colors", {})),
        "platforms": dict(d.get("platforms", {"apple": True, "google": True})),
        "images": dict(definition_read.image_refs(d)),
        "barcode": _barcode_inputs(d.get("barcode")),
        "groups": {group: _field_rows(d, group) for group in rules.GROUPS},
        "event": event,
        "expiresAt": expires, "tz": event_tz or expires_tz or "Z",
        "locations": [_location_row(loc) for loc in d.get("locations", [])
                      if isinstance(loc, dict)],
        "redemption": _redemption_inputs(d.get("redemption"), d.get("type")),
        "card": _card_inputs(d),
        "defaultLanguage": _text(d.get("defaultLanguage")),
        "translations": languages.from_definition(d), "newLanguage": "", "previewLanguage": "",
    }


def _color_inputs(colors: dict[str, Any]) -> ColorInputs:
    foreground = colors.get("foreground", "#000000")
    return {"background": colors.get("background", "#ffffff"), "foreground": foreground,
            "label": colors.get("label") or foreground, "label_on": "label" in colors}


def _barcode_inputs(barcode: dict[str, Any] | None) -> BarcodeInputs:
    given = barcode or {}
    return {"on": bool(barcode), "format": given.get("format", "qr"),
            "mode": "perPass" if given.get("perPass") else "fixed",
            "value": given.get("value", ""), "altText": given.get("altText", "")}


def _redemption_inputs(redemption: object, template_type: object) -> RedemptionInputs:
    given = redemption if isinstance(redemption, dict) else {}
    mode = given.get("mode", "single" if template_type == "coupon" else "none")
    return {"mode": mode if mode in rules.REDEMPTION_MODES else "none",
            "void": given.get("voidOnRedemption") is True,
            "maxUses": _text(given.get("maxUses"))}


def _card_inputs(d: dict[str, Any]) -> CardInputs:
    loyalty, offer = d.get("loyalty"), d.get("offer")
    gift = d.get("giftCard")
    loyalty = loyalty if isinstance(loyalty, dict) else {}
    offer = offer if isinstance(offer, dict) else {}
    return {"programName": _text(loyalty.get("programName")),
            "pointsLabel": _text(loyalty.get("pointsLabel")),
            "currency": _text(gift.get("currency") if isinstance(gift, dict) else ""),
            "title": _text(offer.get("title")), "provider": _text(offer.get("provider")),
            "details": _text(offer.get("details")), "finePrint": _text(offer.get("finePrint"))}


def _field_rows(definition: dict[str, Any], group: str) -> list[FieldRow]:
    items = definition.get("config", {}).get("fields", {}).get(group, [])
    return [_field_row(item) for item in items if isinstance(item, dict)]


def _field_row(field: dict[str, Any]) -> FieldRow:
    return {"key": _text(field.get("key")), "label": _text(field.get("label")),
            "binding": _text(field.get("binding")) or "perPass",
            "value": _text(field.get("value")), "required": field.get("required") is True,
            "format": _text(field.get("format")) or "text",
            "changeMessage": _text(field.get("changeMessage"))}


def _event_inputs(event: dict[str, Any]) -> tuple[EventInputs, str | None]:
    """The event's inputs, and the offset of its first date and time."""
    starts, starts_tz = _local(event.get("startsAt"))
    ends, ends_tz = _local(event.get("endsAt"))
    doors, doors_tz = _local(event.get("doorsOpenAt"))
    venue = event.get("venue") or {}
    location, seat_fields = venue.get("location"), event.get("seatFields")
    point: dict[str, Any] = location if isinstance(location, dict) else {}
    seats: dict[str, Any] = seat_fields if isinstance(seat_fields, dict) else {}
    inputs: EventInputs = {"name": event.get("name", ""), "venue_name": venue.get("name", ""),
                           "venue_address": venue.get("address", ""),
                           "startsAt": starts, "endsAt": ends, "doorsOpenAt": doors,
                           "category": _text(event.get("category")),
                           "venue_latitude": _text(point.get("latitude")),
                           "venue_longitude": _text(point.get("longitude")),
                           "seatFields": {part: _text(seats.get(part))
                                          for part in rules.SEAT_PARTS}}
    return inputs, starts_tz or ends_tz or doors_tz


def _location_row(location: dict[str, Any]) -> LocationRow:
    return {"latitude": _text(location.get("latitude")),
            "longitude": _text(location.get("longitude")),
            "relevantText": _text(location.get("relevantText"))}


def _local(value: Any) -> tuple[str, str | None]:
    """An ISO date-time as a datetime-local value and its offset."""
    moment = formats.parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        return (value if isinstance(value, str) else ""), None
    offset = value[-6:] if value[-6] in "+-" else "Z"
    text = moment.strftime("%Y-%m-%dT%H:%M" + (":%S" if moment.second else ""))
    return text, offset


def _text(value: Any) -> str:
    return "" if value is None else str(value)


# ---- from the posted form -----------------------------------------------------------------

def from_form(form: MultiDict[str, str]) -> FormState:
    """The form state posted by the browser."""

    def get(name: str) -> str:
        return form.get(name, "")

    return {
        "name": get("name"), "revision": _revision(get("revision")),
        "description": get("description"), "organizationName": get("organizationName"),
        "logoText": get("logoText"),
        "colors": _posted_colors(form),
        "platforms": {"apple": get("platform-apple") == "on",
                      "google": get("platform-google") == "on"},
        "images": {slot: get(f"img-{slot}") for slot in rules.SLOTS if get(f"img-{slot}")},
        "barcode": _posted_barcode(form),
        "groups": _posted_rows(form),
        "event": {"name": get("event-name"), "venue_name": get("event-venue_name"),
                  "venue_address": get("event-venue_address"),
                  "startsAt": get("event-startsAt"), "endsAt": get("event-endsAt"),
                  "doorsOpenAt": get("event-doorsOpenAt"), "category": get("event-category"),
                  "venue_latitude": get("event-venue_latitude"),
                  "venue_longitude": get("event-venue_longitude"),
                  "seatFields": {part: get(f"event-seat-{part}")
                                 for part in rules.SEAT_PARTS}},
        "expiresAt": get("expiresAt"), "tz": get("tz").strip() or "Z",
        "locations": _posted_locations(form),
        "redemption": {"mode": get("redemption-mode") or "none",
                       "void": get("redemption-void") == "on",
                       "maxUses": get("redemption-maxUses")},
        "card": {"programName": get("loyalty-programName"),
                 "pointsLabel": get("loyalty-pointsLabel"),
                 "currency": get("giftCard-currency"), "title": get("offer-title"),
                 "provider": get("offer-provider"), "details": get("offer-details"),
                 "finePrint": get("offer-finePrint")},
        "defaultLanguage": get("defaultLanguage").strip(),
        "translations": languages.from_form(form), "newLanguage": get("new-language"),
        "previewLanguage": get("preview-language"),
    }


def _revision(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def _posted_colors(form: MultiDict[str, str]) -> ColorInputs:
    return {"background": form.get("color-background", "") or "#ffffff",
            "foreground": form.get("color-foreground", "") or "#000000",
            "label": form.get("color-label", "") or "#000000",
            "label_on": form.get("color-label-on", "") == "on"}


def _posted_barcode(form: MultiDict[str, str]) -> BarcodeInputs:
    return {"on": form.get("barcode-on", "") == "on",
            "format": form.get("barcode-format", "") or "qr",
            "mode": form.get("barcode-mode", "") or "fixed",
            "value": form.get("barcode-value", ""), "altText": form.get("barcode-altText", "")}


def _posted_rows(form: MultiDict[str, str]) -> dict[str, list[FieldRow]]:
    """Each group's field rows, in the order of their indexes."""
    groups: dict[str, list[FieldRow]] = {group: [] for group in rules.GROUPS}
    rows = [(m.group(1), int(m.group(2))) for m in map(_ROW.match, form) if m]
    for group, index in sorted(rows, key=lambda row: row[1]):
        if group in groups:
            groups[group].append(_posted_row(form, f"f-{group}-{index}-"))
    return groups


def _posted_row(form: MultiDict[str, str], prefix: str) -> FieldRow:
    def get(attr: str) -> str:
        return form.get(prefix + attr, "")

    return {"key": get("key"), "label": get("label"), "binding": get("binding"),
            "value": get("value"), "required": get("required") == "on",
            "format": get("format"), "changeMessage": get("changeMessage")}


def _posted_locations(form: MultiDict[str, str]) -> list[LocationRow]:
    indexes = sorted(int(m.group(1)) for m in map(_LOC.match, form) if m)
    return [{"latitude": form.get(f"loc-{i}-latitude", ""),
             "longitude": form.get(f"loc-{i}-longitude", ""),
             "relevantText": form.get(f"loc-{i}-relevantText", "")} for i in indexes]
