"""Valid request bodies to start from."""

from __future__ import annotations

import copy
from typing import Any

GENERIC: dict[str, Any] = {
    "schemaVersion": 1,
    "type": "generic",
    "description": "Gym membership",
    "organizationName": "Acme Gym",
    "colors": {"background": "#112233", "foreground": "#ffffff"},
    "platforms": {"apple": True, "google": True},
    "config": {"fields": {
        "primary": [{"key": "member", "label": "Member", "binding": "perPass", "required": True}],
        "secondary": [
            {"key": "level", "label": "Level", "binding": "perPass"},
            {"key": "club", "label": "Club", "binding": "shared", "value": "Downtown"},
        ],
    }},
}

EVENT: dict[str, Any] = {
    "schemaVersion": 1,
    "type": "event_ticket",
    "description": "Concert ticket",
    "organizationName": "Acme Live",
    "colors": {"background": "#000000", "foreground": "#ffffff", "label": "#ff0000"},
    "platforms": {"apple": True, "google": False},
    "barcode": {"format": "qr", "perPass": True},
    "event": {"name": "The Show", "venue": {"name": "Hall", "address": "1 Main St"},
              "startsAt": "2027-01-01T20:00:00Z"},
    "config": {"fields": {"primary": [{"key": "seat", "label": "Seat", "binding": "perPass",
                                       "required": True}]}},
}


def definition(kind: str = "generic", **changes: Any) -> dict[str, Any]:
    value = copy.deepcopy(GENERIC if kind == "generic" else EVENT)
    value.update(changes)
    return value


def template_body(kind: str = "generic", name: str = "Membership", **changes: Any
                  ) -> dict[str, Any]:
    return {"name": name, "type": "generic" if kind == "generic" else "event_ticket",
            "definition": definition(kind, **changes)}


def member_import_definition() -> dict[str, Any]:
    """A generic definition as a CSV of members fills it: a required member, a level and a
    number of points, all per pass."""
    return definition(config={"fields": {
        "primary": [{"key": "member", "label": "Member", "binding": "perPass",
                     "required": True}],
        "secondary": [{"key": "level", "label": "Level", "binding": "perPass"},
                      {"key": "points", "label": "Points", "binding": "perPass",
                       "format": "number"}],
    }})
