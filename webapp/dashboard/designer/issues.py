"""Where a definition issue goes on the form: next to its input, and in the summary."""

from __future__ import annotations

from collections.abc import Callable


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


def place(issues: list[dict[str, str]]) -> tuple[dict[str, str], list[str]]:
    """Issues by input name (first message wins) and every message for the summary."""
    by_input: dict[str, str] = {}
    for issue in issues:
        name = input_for(issue.get("path", ""))
        if name:
            by_input.setdefault(name, issue.get("message", ""))
    return by_input, [issue.get("message", "") for issue in issues]


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
        return f"event-venue_{parts[2]}" if len(parts) > 2 else "event-venue_name"
    return f"event-{parts[1]}"


def _locations(parts: list[str]) -> str:
    if len(parts) == 1:
        return "locations"
    return f"loc-{parts[1]}-{parts[2]}" if len(parts) >= 3 else ""


_SECTIONS: dict[str, Callable[[list[str]], str]] = {
    "colors": _colors,
    "images": _images,
    "barcode": _barcode,
    "config": _config,
    "event": _event,
    "locations": _locations,
}
