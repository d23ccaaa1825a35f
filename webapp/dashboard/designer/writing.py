"""Definitions the designer writes: the one its form describes, and a new template's first."""

from __future__ import annotations

import re
from typing import Any

from webapp.dashboard.designer import languages
from webapp.dashboard.designer.keeping import keep
from webapp.dashboard.designer.reading import from_definition
from webapp.dashboard.designer.spelling import settle
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

_TZ = re.compile(r"^(Z|[+-]\d{2}:\d{2})$")


def to_definition(state: FormState, template_type: str) -> dict[str, Any]:
    """The definition the form describes (validation is the service's job)."""
    d: dict[str, Any] = {"schemaVersion": 1, "type": template_type,
                         "description": state["description"].strip(),
                         "organizationName": state["organizationName"].strip(),
                         "colors": _colors(state["colors"]),
                         "platforms": dict(state["platforms"])}
    if state["logoText"].strip():
        d["logoText"] = state["logoText"].strip()
    if state["images"]:
        d["images"] = dict(state["images"])
    if state["barcode"]["on"]:
        d["barcode"] = _barcode(state["barcode"])
    d["config"] = {"fields": _fields(state["groups"])}
    if template_type == "event_ticket":
        d["event"] = _event(state["event"], state["tz"])
    if state["expiresAt"].strip():
        d["expiresAt"] = _iso(state["expiresAt"], state["tz"])
    if state["locations"]:
        d["locations"] = [_location(loc) for loc in state["locations"]]
    redemption = _redemption(state["redemption"])
    # A coupon is redeemed once unless it says otherwise: that default is left unwritten.
    default = {"mode": "single"} if template_type == "coupon" else {"mode": "none"}
    if redemption != default:
        d["redemption"] = redemption
    d.update(_card(state["card"], template_type))
    if state["defaultLanguage"]:
        d["defaultLanguage"] = state["defaultLanguage"]
    if state["translations"]:
        d["translations"] = languages.to_definition(state, template_type)
    return d


def for_save(state: FormState, template_type: str, stored: dict[str, Any]) -> dict[str, Any]:
    """The definition to save: the form's, with every member of `stored` the form cannot
    show kept as it was, in `stored`'s words where the two agree."""
    echo = to_definition(from_definition(stored, state["name"], state["revision"]),
                         template_type)
    return settle(keep(to_definition(state, template_type), stored, echo), stored)


def _redemption(inputs: RedemptionInputs) -> dict[str, Any]:
    out: dict[str, Any] = {"mode": inputs["mode"]}
    if inputs["mode"] == "single" and inputs["void"]:
        out["voidOnRedemption"] = True
    maximum = inputs["maxUses"].strip()
    if inputs["mode"] == "multiple" and maximum:
        out["maxUses"] = int(maximum) if maximum.isascii() and maximum.isdigit() \
            else maximum  # the validator names it
    return out


def _card(inputs: CardInputs, template_type: str) -> dict[str, Any]:
    """The store type's own member (tiers are kept from the stored definition)."""
    if template_type == "loyalty":
        loyalty = {"programName": inputs["programName"].strip()}
        if inputs["pointsLabel"].strip():
            loyalty["pointsLabel"] = inputs["pointsLabel"].strip()
        return {"loyalty": loyalty}
    if template_type == "gift_card":
        return {"giftCard": {"currency": inputs["currency"].strip().upper()}}
    if template_type == "coupon":
        offer = {"title": inputs["title"].strip(), "provider": inputs["provider"].strip()}
        offer.update({key: inputs[key].strip() for key in ("details", "finePrint")
                      if inputs[key].strip()})
        return {"offer": offer}
    return {}


def _colors(inputs: ColorInputs) -> dict[str, str]:
    colors = {"background": inputs["background"], "foreground": inputs["foreground"]}
    if inputs["label_on"]:
        colors["label"] = inputs["label"]
    return colors


def _barcode(inputs: BarcodeInputs) -> dict[str, Any]:
    out: dict[str, Any] = {"format": inputs["format"]}
    if inputs["mode"] == "perPass":
        out["perPass"] = True
    elif inputs["value"].strip():
        out["value"] = inputs["value"].strip()
    if inputs["altText"].strip():
        out["altText"] = inputs["altText"].strip()
    return out


def _fields(groups: dict[str, list[FieldRow]]) -> dict[str, list[dict[str, Any]]]:
    """The groups that have rows, each row as a field."""
    return {group: [_field(row) for row in rows] for group, rows in groups.items() if rows}


def _field(row: FieldRow) -> dict[str, Any]:
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


def _event(inputs: EventInputs, tz: str) -> dict[str, Any]:
    venue: dict[str, Any] = {"name": inputs["venue_name"].strip()}
    if inputs["venue_address"].strip():
        venue["address"] = inputs["venue_address"].strip()
    if inputs["venue_latitude"].strip() or inputs["venue_longitude"].strip():
        venue["location"] = _location({"latitude": inputs["venue_latitude"],
                                       "longitude": inputs["venue_longitude"],
                                       "relevantText": ""})
    out: dict[str, Any] = {"name": inputs["name"].strip(), "venue": venue,
                           "startsAt": _iso(inputs["startsAt"], tz)}
    for member, local in (("endsAt", inputs["endsAt"]), ("doorsOpenAt", inputs["doorsOpenAt"])):
        if local.strip():
            out[member] = _iso(local, tz)
    if inputs["category"].strip():
        out["category"] = inputs["category"].strip()
    seats = {part: key.strip() for part, key in inputs["seatFields"].items() if key.strip()}
    if seats:
        out["seatFields"] = seats
    return out


def _location(row: LocationRow) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, given in (("latitude", row["latitude"]), ("longitude", row["longitude"])):
        text = given.strip()
        try:
            out[key] = float(text)
        except ValueError:
            out[key] = text  # the validator names it
    if row["relevantText"].strip():
        out["relevantText"] = row["relevantText"].strip()
    return out


def _iso(local: str, tz: str) -> str:
    """A datetime-local value with the template's offset, as ISO 8601."""
    local = local.strip()
    if not local:
        return ""
    if len(local) == 16:
        local += ":00"
    return local + (tz if _TZ.match(tz) else "Z")


_DESCRIPTIONS = {"event_ticket": "Event ticket", "loyalty": "Loyalty card",
                 "gift_card": "Gift card", "coupon": "Coupon"}


def starter(template_type: str, organization_name: str, starts_at: str, *,
            logo: str | None = None) -> dict[str, Any]:
    """The first revision of a new template: a design that already validates (a loyalty
    card's needs `logo`, an asset ID)."""
    d: dict[str, Any] = {
        "schemaVersion": 1, "type": template_type,
        "description": _DESCRIPTIONS.get(template_type, "Membership card"),
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
    name = organization_name[:64] or "Our shop"
    if template_type in ("loyalty", "gift_card", "coupon"):  # the balance or offer is primary
        fields = d["config"]["fields"]
        fields["secondary"].insert(0, fields.pop("primary")[0])
    if template_type == "loyalty":
        d["loyalty"] = {"programName": name, "pointsLabel": "Points"}
        if logo:
            d["images"] = {"logo": logo}
    elif template_type == "gift_card":
        d["giftCard"] = {"currency": "EUR"}
    elif template_type == "coupon":
        d["offer"] = {"title": "Your offer", "provider": name}
    return d
