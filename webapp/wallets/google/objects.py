"""Google Wallet classes and objects from a template revision and a pass (pure mapping).

One class per (template, revision, issuer) and one object per pass (research google.md
section 2.9). Generic passes carry their look on the object (GenericClass holds only the
card-row layout and the callback URL); event tickets carry it on the class. A voided pass
is `state: INACTIVE`. The template's `locations` are the class's `merchantLocations`
(Google's geofenced notifications; its `locations` member is deprecated).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeGuard

from webapp.wallets import seats, shown_images
from webapp.wallets.google import store_objects

GROUPS = ("header", "primary", "secondary", "auxiliary", "back")
CARD_ROW_GROUPS = ("secondary", "auxiliary", "header")  # at most 3 rows, 3 items each
SEAT_PARTS = {"number": "seat", "row": "row", "section": "section", "gate": "gate"}
MAX_LOCATIONS = 10
BARCODE_TYPES = {"qr": "QR_CODE", "pdf417": "PDF_417", "aztec": "AZTEC", "code128": "CODE_128"}
LANGUAGE = "en"
_UNSAFE_ID = re.compile(r"[^A-Za-z0-9._-]")
_UNSAFE_MODULE_ID = re.compile(r"[^A-Za-z0-9_-]")

AssetUrl = Callable[[str], str]


@dataclass(frozen=True)
class PassData:
    """What of a pass its Google object shows."""

    id: str
    status: str  # active | voided
    field_values: dict[str, Any]
    title: str  # the template's name: the card's header when it has no primary field
    holder_name: str | None = None
    barcode_message: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    checked_in_at: datetime | None = None  # the pass's last redemption (check-in)
    expires_at: str | None = None  # the pass's own expiry (RFC 3339) over the template's
    images: dict[str, str] = field(default_factory=dict)  # its own: slot -> asset ID
    balance: store_objects.Balance | None = None  # loyalty and gift cards
    card_number: str = ""  # a gift card's: its barcode value, else its short ID


def kinds(template_type: str) -> tuple[str, str]:
    """The REST resource names (class, object) for a template type."""
    if template_type == "event_ticket":
        return "eventTicketClass", "eventTicketObject"
    return store_objects.KINDS.get(template_type, ("genericClass", "genericObject"))


def class_id(issuer_id: str, template_id: str, revision: int) -> str:
    """`<issuer>.<template>_r<revision>`: one class per template revision and issuer."""
    return f"{issuer_id}.{_UNSAFE_ID.sub('_', f'{template_id}_r{revision}')}"


def object_id(issuer_id: str, pass_id: str) -> str:
    """`<issuer>.<pass id>`: one object per pass."""
    return f"{issuer_id}.{_UNSAFE_ID.sub('_', pass_id)}"


def build_class(template_type: str, definition: dict[str, Any], cls_id: str, *,
                asset_url: AssetUrl, callback_url: str | None,
                signup_url: str | None = None) -> dict[str, Any]:
    """The class JSON for a template revision (`signup_url`: its open sign-up page)."""
    body: dict[str, Any] = {"id": cls_id}
    rows = _card_rows(definition, template_type)
    if rows:
        body["classTemplateInfo"] = {"cardTemplateOverride": {"cardRowTemplateInfos": rows}}
    if callback_url:
        body["callbackOptions"] = {"url": callback_url}
    if locations := merchant_locations(definition.get("locations")):
        body["merchantLocations"] = locations
    if template_type in store_objects.KINDS:
        logo = _shown(definition).get("logo")
        body.update(store_objects.class_members(
            template_type, definition, logo,
            lambda ref: _image(ref, asset_url, str(definition.get("organizationName") or "")),
            signup_url))
        body.update(_look(definition, asset_url, logo=False))
        return body
    if template_type != "event_ticket":
        return body
    event = _member(definition, "event")
    venue = _member(event, "venue")
    body.update({
        "issuerName": str(definition.get("organizationName", ""))[:64],
        "eventName": localized(event.get("name") or definition.get("description") or ""),
        "reviewStatus": "UNDER_REVIEW",
        "eventId": cls_id.split(".", 1)[1][:64],
    })
    if venue.get("name"):
        body["venue"] = {"name": localized(venue["name"]),
                         "address": localized(venue.get("address") or venue["name"])}
    times = {"start": event.get("startsAt"), "end": event.get("endsAt"),
             "doorsOpen": event.get("doorsOpenAt")}
    if any(times.values()):
        body["dateTime"] = {k: v for k, v in times.items() if v}
    body.update(_look(definition, asset_url, logo=True))
    return body


def build_object(template_type: str, definition: dict[str, Any], item: PassData,
                 cls_id: str, obj_id: str, *, asset_url: AssetUrl) -> dict[str, Any]:
    """The object JSON for a pass (its current values and state)."""
    body: dict[str, Any] = {"id": obj_id, "classId": cls_id, "state": state(item.status)}
    modules = list(_text_modules(definition, item, skip=_skipped(definition, template_type)))
    if item.checked_in_at is not None:
        modules.append(checked_in_module(item.checked_in_at))
    if template_type == "event_ticket":
        if item.holder_name:
            body["ticketHolderName"] = item.holder_name
        seat = _seat_info(definition, item)
        if seat:
            body["seatInfo"] = seat
        look = _look(definition, asset_url, logo=False)
    elif template_type in store_objects.KINDS:
        body.update(store_objects.object_members(template_type, item.balance, item.holder_name,
                                                 item.card_number))
        look = {}  # on the class
    else:
        primary = _first(definition, "primary")
        header = _value(primary, item) if primary else None
        body["cardTitle"] = localized(str(definition.get("organizationName") or item.title))
        body["header"] = localized(header or item.title)
        if primary and header and primary.get("label"):
            body["subheader"] = localized(str(primary["label"]))
        look = _look(definition, asset_url, logo=True)
    body.update(look)
    body.update(_own_images(item, asset_url))
    if modules:
        body["textModulesData"] = modules
    barcode = _barcode(definition, item)
    if barcode:
        body["barcode"] = barcode
    expires = item.expires_at or definition.get("expiresAt")
    if expires:
        body["validTimeInterval"] = {"end": {"date": expires}}
    return body


def checked_in_module(moment: datetime) -> dict[str, Any]:
    """When the pass was last checked in, as a text module; its ID has a hyphen, which no
    field key's module ID has. Google shows text as given: the time is written in UTC."""
    when = moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return {"id": "checked-in", "header": "Checked in", "body": when}


# Object members a pass can lose by an update (its own expiry or images cleared).
CLEARABLE = ("validTimeInterval", "heroImage", "imageModulesData")


def patch_body(body: dict[str, Any]) -> dict[str, Any]:
    """An object body for PATCH: a member left out is kept as it was, so those a pass can
    lose are sent as null, which clears them (Google's patch semantics)."""
    return {**dict.fromkeys(CLEARABLE), **body}


def state(status: str) -> str:
    """Google's object state for a pass status."""
    return "INACTIVE" if status == "voided" else "ACTIVE"


def localized(text: str) -> dict[str, Any]:
    """A LocalizedString in the default language."""
    return {"defaultValue": {"language": LANGUAGE, "value": str(text)}}


def merchant_locations(value: object) -> list[dict[str, float]]:
    """Google's MerchantLocation list ({latitude, longitude}, at most 10) for `locations`."""
    out = []
    for item in value if isinstance(value, list) else []:
        lat = item.get("latitude") if isinstance(item, dict) else None
        lon = item.get("longitude") if isinstance(item, dict) else None
        if _is_number(lat) and _is_number(lon):
            out.append({"latitude": float(lat), "longitude": float(lon)})
    return out[:MAX_LOCATIONS]


def module_id(key: str) -> str:
    """A text module ID from a field key (no dots: they separate field paths)."""
    return _UNSAFE_MODULE_ID.sub("_", key)


def message(message_id: str, header: str, body: str, kind: str) -> dict[str, Any]:
    """A message for `addMessage` (`TEXT` or `TEXT_AND_NOTIFY`)."""
    return {"id": _UNSAFE_MODULE_ID.sub("_", message_id), "header": header[:35],
            "body": body[:500], "messageType": kind}


# ---- helpers -----------------------------------------------------------------------------

def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _member(obj: dict[str, Any], key: str) -> dict[str, Any]:
    """The member `key` when it is an object; {} when it is absent or anything else."""
    value = obj.get(key)
    return value if isinstance(value, dict) else {}


def _fields(definition: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    groups = (definition.get("config") or {}).get("fields") or {}
    if not isinstance(groups, dict):
        return
    for group in GROUPS:
        for item in groups.get(group) or []:
            if isinstance(item, dict) and isinstance(item.get("key"), str):
                yield group, item


def _first(definition: dict[str, Any], group: str) -> dict[str, Any] | None:
    return next((f for g, f in _fields(definition) if g == group), None)


def _value(field_: dict[str, Any], item: PassData) -> str | None:
    value = field_.get("value") if field_.get("binding") == "shared" else \
        item.field_values.get(field_["key"])
    if value is None or value == "":
        return None
    return str(value)


def _skipped(definition: dict[str, Any], template_type: str) -> set[str]:
    if template_type == "event_ticket":
        return set(seats.seat_keys(definition).values())
    if template_type in store_objects.KINDS:  # no header on these cards: every field a module
        return set()
    primary = _first(definition, "primary")
    return {primary["key"]} if primary else set()


def _text_modules(definition: dict[str, Any], item: PassData, skip: set[str]
                  ) -> Iterable[dict[str, Any]]:
    for _group, field_ in _fields(definition):
        value = _value(field_, item)
        if field_["key"] in skip or value is None:
            continue
        yield {"id": module_id(field_["key"]),
               "header": str(field_.get("label") or field_["key"])[:35], "body": value[:500]}


def _card_rows(definition: dict[str, Any], template_type: str) -> list[dict[str, Any]]:
    skip = _skipped(definition, template_type)
    rows = []
    for group in CARD_ROW_GROUPS:
        keys = [f["key"] for g, f in _fields(definition) if g == group and f["key"] not in skip]
        if keys:
            rows.append(_row(keys[:3]))
    return rows


def _row(keys: list[str]) -> dict[str, Any]:
    def item(key: str) -> dict[str, Any]:
        path = f"object.textModulesData['{module_id(key)}']"
        return {"firstValue": {"fields": [{"fieldPath": path}]}}

    if len(keys) == 1:
        return {"oneItem": {"item": item(keys[0])}}
    if len(keys) == 2:
        return {"twoItems": {"startItem": item(keys[0]), "endItem": item(keys[1])}}
    return {"threeItems": {"startItem": item(keys[0]), "middleItem": item(keys[1]),
                           "endItem": item(keys[2])}}


def _seat_info(definition: dict[str, Any], item: PassData) -> dict[str, Any]:
    seat = seats.seat(definition, item.field_values)
    return {SEAT_PARTS[part]: localized(text) for part, text in seat.items()}


def _image(asset_id: str, asset_url: AssetUrl, description: str) -> dict[str, Any]:
    return {"sourceUri": {"uri": asset_url(asset_id)},
            "contentDescription": localized(description or "image")}


def _shown(definition: dict[str, Any]) -> dict[str, str]:
    """The template's images Google shows: `logo` and `hero`."""
    images = _member(definition, "images")
    return shown_images.google({slot: ref for slot, ref in images.items()
                                if isinstance(ref, str) and ref})


def _look(definition: dict[str, Any], asset_url: AssetUrl, *, logo: bool) -> dict[str, Any]:
    name = str(definition.get("organizationName") or "")
    out: dict[str, Any] = {}
    color = (definition.get("colors") or {}).get("background")
    if isinstance(color, str) and color:
        out["hexBackgroundColor"] = color
    shown = _shown(definition)
    if logo and "logo" in shown:
        out["logo"] = _image(shown["logo"], asset_url, name)
    if "hero" in shown:
        out["heroImage"] = _image(shown["hero"], asset_url, name)
    return out


def _own_images(item: PassData, asset_url: AssetUrl) -> dict[str, Any]:
    """The pass's own images: a strip is the object's hero image (over the template's), a
    thumbnail (a member photo) an image module, the one a Google object can show."""
    out: dict[str, Any] = {}
    if item.images.get("strip"):
        out["heroImage"] = _image(item.images["strip"], asset_url, item.title)
    if item.images.get("thumbnail"):
        out["imageModulesData"] = [{"id": "thumbnail", "mainImage": _image(
            item.images["thumbnail"], asset_url, item.holder_name or item.title)}]
    return out


def _barcode(definition: dict[str, Any], item: PassData) -> dict[str, Any] | None:
    settings = definition.get("barcode")
    if not isinstance(settings, dict) or not item.barcode_message:
        return None
    body = {"type": BARCODE_TYPES.get(str(settings.get("format")), "QR_CODE"),
            "value": item.barcode_message}
    alt = item.extra.get("barcode_alt_text")
    if alt:
        body["alternateText"] = str(alt)
    return body
