"""The pass preview every door draws (the designer, the pass page, the holder page) from
one shape, with `shared/_pass_preview.html`: colours, texts, fields by group with the text a
wallet shows, the barcode as inline SVG, the event, and the pass's state."""

from __future__ import annotations

import re
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from babel import Locale, dates, numbers
from sqlalchemy import select

from webapp.domain import definition_read, formats
from webapp.extensions import db
from webapp.models import Asset, Pass
from webapp.services.passes import views
from webapp.wallets import barcodes, shown_images

_SAMPLES = {"number": "42", "date": "2027-06-01", "dateTime": "2027-06-01T19:30:00+02:00"}
_SAMPLE_CHECK_IN = "2027-06-01T19:42:00+02:00"
# The balance the designer's sample pass shows: 250 points, 25.00 of a gift card's money.
_SAMPLE_BALANCES = {"loyalty": 250, "gift_card": 2500}
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")
# What Apple Wallet shows when a design names no colours: black on white (21:1).
DEFAULT_COLORS = {"background": "#ffffff", "foreground": "#000000"}


def for_definition(definition: dict[str, Any]) -> dict[str, Any]:
    """The card of a (possibly unsaved) definition, perPass fields filled with samples;
    always `active`.

    Never raises on a half-edited definition: what cannot be drawn is left out.
    """
    samples = {}
    for key, field in definition_read.per_pass_fields(definition).items():
        fmt = field.get("format", "text")
        samples[key] = _SAMPLES.get(fmt) or "\u2039" + (field.get("label") or key) + "\u203a"
    sample_balance = _SAMPLE_BALANCES.get(str(definition.get("type")))
    item = SimpleNamespace(field_values=samples, short_id="7K3M9Q2XHB4T", id="pass_sample",
                           barcode_value="PER-PASS-VALUE", balance=sample_balance,
                           lifetime_points=sample_balance)
    card = views.preview(item, definition)  # type: ignore[arg-type]
    card["state"] = "active"
    if definition_read.redemption_rule(definition).mode != "none":
        card["fields"]["back"].append({"key": definition_read.CHECKED_IN_KEY, "value":
                                       _SAMPLE_CHECK_IN,
                                       "label": definition_read.CHECKED_IN_LABEL})
    return _finish(card, definition, {definition_read.CHECKED_IN_KEY: "dateTime"})


def for_pass(item: Pass, definition: dict[str, Any] | None = None) -> dict[str, Any]:
    """The card of an issued pass (its values, its revision's `definition`, by default the
    one `views.attach` set), `voided` or `expired` when it is; images carry their size."""
    if definition is None:
        definition = getattr(item, "definition", None) or {}
    card = views.preview(item, definition)
    card["organizationName"] = views.issuer_name(item, definition)  # as the wallets name it
    card["state"] = state(item, definition)
    card = _finish(card, definition)
    card["images"] = _sized(item.organization_id, card["images"])
    return _wallet_images(card)


def _wallet_images(card: dict[str, Any]) -> dict[str, Any]:
    """Set `card["shown"]`: the images each wallet shows (`wallets.shown_images`), which
    the preview draws."""
    card["shown"] = {"apple": shown_images.apple(card["type"], card["images"]),
                     "google": shown_images.google(card["images"])}
    return card


def state(item: Pass, definition: dict[str, Any]) -> str:
    """`voided`, `expired` (its own `expiresAt`, else the design's, has passed: wallets
    show the pass as expired) or `active`."""
    if item.status == "voided":
        return "voided"
    return "expired" if views.expired(item, definition) else "active"


def _finish(card: dict[str, Any], definition: dict[str, Any],
            formats_: dict[str, str] | None = None) -> dict[str, Any]:
    by_key = {f.get("key"): f.get("format", "text")
              for _g, f in definition_read.fields(definition)} | (formats_ or {})
    for group, fields in card["fields"].items():
        shown = [f for f in fields if f.get("value") not in (None, "")]  # wallets omit them
        for field in shown:
            field["format"] = by_key.get(field.get("key")) or "text"
        card["fields"][group] = shown
    platforms = definition.get("platforms") if isinstance(definition, dict) else None
    card["platforms"] = platforms if isinstance(platforms, dict) else {}
    card["type"] = str(definition.get("type") or "generic")
    card["colors"] = colors(definition)
    card["images"] = {slot: {"id": ref} for slot, ref in card["images"].items()}
    _wallet_images(card)
    card["event"] = _event(card.get("event"))
    barcode = card.get("barcode")
    if barcode and barcode.get("value"):
        barcode["text"] = barcode.get("altText") or barcode["value"]
        try:
            barcode["svg"] = barcodes.svg(barcode.get("format") or "qr", barcode["value"])
        except ImportError:  # zxing-cpp missing: the card shows the text instead
            barcode["svg"] = None
    elif barcode:
        card["barcode"] = None
    return localize(card, "en")


def localize(card: dict[str, Any], locale: str) -> dict[str, Any]:
    """Set the texts the card prints (`display` of each field, the event's `starts` and
    `doors`) in `locale` (`en`, `de`, ...): dates in words, numbers grouped."""
    for fields in card["fields"].values():
        for field in fields:
            field["display"] = display(field["value"], field["format"], locale)
    event = card.get("event")
    if event:
        event["starts"] = when(event["startsAt"], locale)
        event["doors"] = when(event["doorsOpenAt"], locale)
    return card


def colors(definition: dict[str, Any]) -> dict[str, str]:
    """The card's `#rrggbb` background, foreground and label colours (the label defaults
    to the foreground, as in Apple Wallet; anything else than `#rrggbb` to the defaults)."""
    given = definition.get("colors")
    given = given if isinstance(given, dict) else {}

    def pick(name: str, fallback: str) -> str:
        value = given.get(name)
        return value if isinstance(value, str) and _COLOR.fullmatch(value) else fallback

    foreground = pick("foreground", DEFAULT_COLORS["foreground"])
    return {"background": pick("background", DEFAULT_COLORS["background"]),
            "foreground": foreground, "label": pick("label", foreground)}


def _event(event: object) -> dict[str, Any] | None:
    """The event as the card prints it: name, place, and its `startsAt`/`doorsOpenAt`
    (`localize` words them as `starts`/`doors`)."""
    if not isinstance(event, dict):
        return None
    venue = event.get("venue")
    venue = venue if isinstance(venue, dict) else {}
    place = ", ".join(str(v) for v in (venue.get("name"), venue.get("address")) if v)
    out: dict[str, str | None] = {"name": str(event.get("name") or ""), "place": place}
    for key in ("startsAt", "doorsOpenAt"):
        moment = event.get(key)
        moment = moment if isinstance(moment, str) and formats.parse_datetime(moment) else None
        out[key] = moment
    return out if any(out.values()) else None


def _sized(organization_id: str, images: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The organization's images with their pixel size (so a page reserves their box);
    a reference to anything else is left out."""
    refs = {image["id"] for image in images.values()}
    if not refs:
        return {}
    rows = db.session.execute(select(Asset.id, Asset.width, Asset.height).where(
        Asset.id.in_(refs), Asset.organization_id == organization_id)).all()
    sizes = {row.id: (row.width, row.height) for row in rows}
    return {slot: {"id": image["id"], "width": sizes[image["id"]][0],
                   "height": sizes[image["id"]][1]}
            for slot, image in images.items() if image["id"] in sizes}


def display(value: str | None, fmt: str | None, locale: str = "en") -> str:
    """A value as a wallet shows it in `locale`: dates in words, numbers grouped, the rest
    as text (a value its format cannot read stays as it is)."""
    if value is None or value == "":
        return ""
    try:
        if fmt == "date" and (day := formats.parse_date(value)) is not None:
            return str(dates.format_date(day, "long", locale=locale))
        if fmt in ("date", "dateTime"):
            return when(value, locale) or value
        if fmt == "number" and formats.is_numeric_text(value):
            return str(numbers.format_decimal(Decimal(value), locale=locale))
    except (ValueError, OverflowError, ArithmeticError):  # InvalidOperation is one
        return value
    return value


def when(value: str | None, locale: str = "en") -> str | None:
    """An ISO 8601 date and time in `locale`, shown in its own offset (the event's local
    time): "Fri, Jan 1, 2027, 8:00 PM"; None if it is not one."""
    moment = formats.parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        return None
    where = Locale.parse(locale)
    day = dates.format_skeleton("yMMMEd", moment, tzinfo=moment.tzinfo, locale=where)
    time = dates.format_time(moment, "short", tzinfo=moment.tzinfo, locale=where)
    return str(where.datetime_formats["medium"].format(time, day))
