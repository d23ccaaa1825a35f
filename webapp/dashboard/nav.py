"""The dashboard's navigation: each page module adds its entry when it is imported.

A new section joins with one import line in `webapp/dashboard/__init__.py` and one
`nav.add(...)` call in its own module.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NavItem:
    label: str
    endpoint: str  # e.g. "dashboard.passes_index"; the current environment is filled in
    order: int
    section: str  # the endpoints of a section share this prefix: "dashboard.passes_"


ITEMS: list[NavItem] = []


def add(label: str, endpoint: str, order: int, section: str | None = None) -> None:
    """Add a navigation entry (once; re-imports are ignored)."""
    if any(item.endpoint == endpoint for item in ITEMS):
        return
    ITEMS.append(NavItem(label, endpoint, order, section or endpoint.rsplit("_", 1)[0] + "_"))
    ITEMS.sort(key=lambda item: item.order)


def active(endpoint: str | None) -> NavItem | None:
    """The entry whose section the endpoint belongs to."""
    return next((i for i in ITEMS if endpoint and endpoint.startswith(i.section)), None)
