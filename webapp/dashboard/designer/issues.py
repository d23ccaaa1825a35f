"""Where a definition issue goes on the form: next to its input, and in the summary."""

from __future__ import annotations

from collections.abc import Callable

from webapp.dashboard.designer import languages


def input_for(path: str) -> str:
    """The form input a definition issue's JSON Pointer belongs to ("" for the summary)."""
    parts = path.strip("/").split("/") if path else []
    if not parts:
        return ""
    head = parts[0]
    if head in _SAME_NAME:
        return head
    section = _SECTIONS.get(head)
    return section(parts) if section is not None else ""


def place(issues: list[dict[str, str]], definition: object = None
          ) -> tuple[dict[str, str], list[str]]:
    """Issues in words by input name (first message wins) and every one for the summary."""
    by_input: dict[str, str] = {}
    messages = [words(issue, definition) for issue in issues]
    for issue, message in zip(issues, messages, strict=True):
        name = input_for(issue.get("path", ""))
        if name:
            by_input.setdefault(name, message)
    return by_input, messages


def words(issue: dict[str, str], definition: object = None) -> str:
    """The issue said about the thing on the form, not its JSON path.

    "config.fields.secondary[0].key is required." becomes "The secondary row's first field
    needs a key."; an empty value in `definition` counts as missing. The validator's message
    starts with the path's dotted name: that name is replaced by the words for it.
    """
    path = issue.get("path", "")
    message = issue.get("message", "")
    tokens = path.strip("/").split("/") if path else []
    subject = _subject(tokens)
    if subject is None:
        return message
    owner, noun = subject
    if noun and (issue.get("code") == "required" or _value_at(definition, tokens) == ""):
        return f"{owner} needs {_article(noun)} {noun}."
    dotted = "".join(f"[{t}]" if t.isdigit() else f".{t}" for t in tokens).lstrip(".")
    if not message.startswith(dotted):
        return message
    return (f"{owner}'s {noun}" if noun else owner) + message[len(dotted):]


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")
_ROWS = {"header": "header row", "primary": "primary row", "secondary": "secondary row",
         "auxiliary": "auxiliary row", "back": "back of the pass"}
_FIELD_PARTS = {"key": "key", "label": "label", "value": "shared value", "binding": "value type",
                "format": "format", "required": "required setting",
                "changeMessage": "change message"}
_TEMPLATE_PARTS = {"description": "description", "organizationName": "organization name",
                   "logoText": "logo text", "expiresAt": "expiry date"}
_EVENT_PARTS = {"name": "name", "startsAt": "start time", "endsAt": "end time",
                "doorsOpenAt": "doors-open time"}
_REDEMPTION_PARTS = {"mode": "kind", "maxUses": "maximum",
                     "voidOnRedemption": "void setting"}
_BARCODE_PARTS = {"format": "format", "value": "text", "altText": "text under it",
                  "perPass": "per-pass setting"}


def _ordinal(token: str) -> str:
    index = int(token) if token.isdigit() else -1
    return _ORDINALS[index] if 0 <= index < len(_ORDINALS) else f"number {index + 1}"


def _subject(tokens: list[str]) -> tuple[str, str | None] | None:
    """Who has the problem and which of its parts: ("The primary row's first field", "key")."""
    if len(tokens) == 1 and tokens[0] in _TEMPLATE_PARTS:
        return "The template", _TEMPLATE_PARTS[tokens[0]]
    if len(tokens) == 2 and tokens[0] in ("colors", "images"):
        kind = "colour" if tokens[0] == "colors" else "image"
        return "The template", f"{tokens[1]} {kind}"
    if tokens[:2] == ["config", "fields"] and len(tokens) >= 3 and tokens[2] in _ROWS:
        row = f"The {_ROWS[tokens[2]]}"
        if len(tokens) == 3:
            return row, None
        field = f"{row}'s {_ordinal(tokens[3])} field"
        if len(tokens) == 4:
            return field, None
        return (field, _FIELD_PARTS[tokens[4]]) if tokens[4] in _FIELD_PARTS else None
    if tokens[:1] == ["event"] and len(tokens) == 2 and tokens[1] in _EVENT_PARTS:
        return "The event", _EVENT_PARTS[tokens[1]]
    if tokens[:2] == ["event", "venue"] and len(tokens) == 3:
        return "The event", "venue" if tokens[2] == "name" else f"venue {tokens[2]}"
    if tokens[:1] == ["translations"]:
        return languages.subject(tokens)
    if tokens[:1] == ["barcode"] and len(tokens) == 2 and tokens[1] in _BARCODE_PARTS:
        return "The barcode", _BARCODE_PARTS[tokens[1]]
    if tokens[:1] == ["redemption"] and len(tokens) == 2 and tokens[1] in _REDEMPTION_PARTS:
        return "Check-in", _REDEMPTION_PARTS[tokens[1]]
    if tokens[:1] == ["locations"] and len(tokens) == 3:
        part = {"relevantText": "lock-screen text"}.get(tokens[2], tokens[2])
        return f"The {_ordinal(tokens[1])} location", part
    return None


def _article(noun: str) -> str:
    return "an" if noun[0] in "aeiou" else "a"


def _value_at(document: object, tokens: list[str]) -> object:
    """The value at a path of the definition (None when there is none)."""
    for token in tokens:
        if isinstance(document, dict):
            document = document.get(token)
        elif isinstance(document, list) and token.isdigit() and int(token) < len(document):
            document = document[int(token)]
        else:
            return None
    return document


# Members whose input has their name; `platforms` is one input for both of its members.
_SAME_NAME = ("description", "organizationName", "logoText", "expiresAt", "platforms")


def _colors(parts: list[str]) -> str:
    return f"color-{parts[1]}" if len(parts) > 1 else ""


def _images(parts: list[str]) -> str:
    return f"img-{parts[1]}" if len(parts) > 1 else ""


def _barcode(parts: list[str]) -> str:
    return f"barcode-{parts[1]}" if len(parts) > 1 else "barcode-format"


def _config(parts: list[str]) -> str:
    """/config/fields/<group> is the group; below it, a row's input (its key by default)."""
    if len(parts) < 3:
        return ""
    if len(parts) == 3:
        return f"group-{parts[2]}"
    attr = parts[4] if len(parts) >= 5 else "key"
    return f"f-{parts[2]}-{parts[3]}-{attr}"


def _event(parts: list[str]) -> str:
    if len(parts) == 1:
        return "event-name"
    if parts[1] == "venue":
        if len(parts) > 2 and parts[2] == "location":
            return f"event-venue_{parts[3]}" if len(parts) > 3 else "event-venue_latitude"
        return f"event-venue_{parts[2]}" if len(parts) > 2 else "event-venue_name"
    if parts[1] == "seatFields":
        return f"event-seat-{parts[2]}" if len(parts) > 2 else "event-seat-number"
    return f"event-{parts[1]}"


def _locations(parts: list[str]) -> str:
    if len(parts) == 1:
        return "locations"
    return f"loc-{parts[1]}-{parts[2]}" if len(parts) >= 3 else ""


def _redemption(parts: list[str]) -> str:
    return f"redemption-{parts[1]}" if len(parts) > 1 else "redemption-mode"


_SECTIONS: dict[str, Callable[[list[str]], str]] = {
    "colors": _colors,
    "images": _images,
    "barcode": _barcode,
    "config": _config,
    "event": _event,
    "locations": _locations,
    "redemption": _redemption,
    "translations": languages.input_for,
    "defaultLanguage": lambda parts: "defaultLanguage",
    # The store types' members (issue 32): `loyalty-programName`, `giftCard-currency`,
    # `offer-title`; a tier's issues go under the tiers note.
    "loyalty": lambda parts: "loyalty-" + (parts[1] if len(parts) > 1 else "programName"),
    "giftCard": lambda parts: "giftCard-currency",
    "offer": lambda parts: "offer-" + (parts[1] if len(parts) > 1 else "title"),
}
