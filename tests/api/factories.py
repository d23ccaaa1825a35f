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


def _store(kind: str, description: str, **members: Any) -> dict[str, Any]:
    """A definition of one of the store types (loyalty, gift_card, coupon)."""
    return {"schemaVersion": 1, "type": kind, "description": description,
            "organizationName": "Bean Club",
            "colors": {"background": "#6b3e26", "foreground": "#ffffff"},
            "platforms": {"apple": True, "google": True},
            "barcode": {"format": "qr"},
            "config": {"fields": {"secondary": [{"key": "member", "label": "Member",
                                                 "binding": "perPass"}]}},
            **members}


TIERS = [{"name": "Silver", "minLifetimePoints": 0},
         {"name": "Gold", "minLifetimePoints": 1000, "backgroundColor": "#1f1f1f",
          "foregroundColor": "#f5d061", "labelColor": "#ffffff"}]


def loyalty_definition(logo: str, **changes: Any) -> dict[str, Any]:
    """A loyalty card with points, a Silver and a Gold tier, and its (required) logo."""
    return {**_store("loyalty", "Bean Club card", images={"logo": logo},
                     loyalty={"programName": "Bean Club", "pointsLabel": "Points",
                              "tiers": copy.deepcopy(TIERS)}), **changes}


def gift_card_definition(currency: str = "EUR", **changes: Any) -> dict[str, Any]:
    return {**_store("gift_card", "Bean Club gift card", giftCard={"currency": currency}),
            **changes}


def coupon_definition(**changes: Any) -> dict[str, Any]:
    return {**_store("coupon", "2 for 1 coffee", offer={
        "title": "2 for 1 coffee", "provider": "Bean Club", "details": "Any two coffees.",
        "finePrint": "Once per visit."}), **changes}


def store_body(definition: dict[str, Any], name: str = "Bean Club") -> dict[str, Any]:
    return {"name": name, "type": definition["type"], "definition": definition}
