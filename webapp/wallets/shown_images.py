"""Which images each wallet shows: the one rule the `.pkpass`, the Google objects and every
preview (designer, pass page, holder page) follow.

Apple Wallet shows per style: a generic pass its icon, logo and thumbnail (no strip: that is
the other styles'); a store card or coupon its icon, logo and strip; an event ticket its
icon, logo, strip, background and thumbnail, but with a strip no background or thumbnail.
Google Wallet shows a logo (the logo, else the icon) and a hero image (the hero, else the
strip).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")

APPLE_SLOTS = {"generic": ("icon", "logo", "thumbnail"),
               "event_ticket": ("icon", "logo", "strip", "background", "thumbnail"),
               # Store cards (loyalty, gift cards) and coupons.
               "loyalty": ("icon", "logo", "strip"), "gift_card": ("icon", "logo", "strip"),
               "coupon": ("icon", "logo", "strip")}


def apple(template_type: str, images: Mapping[str, T]) -> dict[str, T]:
    """Slot -> image of `images` that Apple Wallet shows on a pass of `template_type`."""
    slots = APPLE_SLOTS.get(template_type, APPLE_SLOTS["generic"])
    shown = {slot: images[slot] for slot in slots if slot in images}
    if template_type == "event_ticket" and "strip" in shown:
        shown.pop("background", None)
        shown.pop("thumbnail", None)
    return shown


def google(images: Mapping[str, T]) -> dict[str, T]:
    """`logo` and `hero` of `images` as Google Wallet shows them."""
    out: dict[str, T] = {}
    for slot, sources in (("logo", ("logo", "icon")), ("hero", ("hero", "strip"))):
        found = next((images[source] for source in sources if source in images), None)
        if found is not None:
            out[slot] = found
    return out
