"""What one pass may set over its template's design: its own dates and images (issue 20).

Dates are RFC 3339 date-times with an offset (`Z` or `+hh:mm`), kept as given. Images go in
the slots a wallet shows per pass: a thumbnail (a member photo: Apple's `thumbnail`, a
Google image module) on every pass, and on an event ticket also a strip (Apple's `strip`,
Google's `heroImage` of the object). Logos and icons belong to the issuer: Apple keeps one
notification icon per pass type, and an event ticket's Google logo is on its class.
"""

from __future__ import annotations

from datetime import datetime

from webapp.domain.formats import parse_datetime

DATE_MEMBERS: tuple[str, ...] = ("expiresAt", "relevantDate")
DATE_LABELS = {"expiresAt": "Expires", "relevantDate": "Relevant date"}
IMAGE_SLOTS: dict[str, tuple[str, ...]] = {"generic": ("thumbnail",),
                                           "event_ticket": ("strip", "thumbnail"),
                                           # Store cards and coupons show no thumbnail:
                                           # their own strip (Google's hero image).
                                           "loyalty": ("strip",), "gift_card": ("strip",),
                                           "coupon": ("strip",)}
MAX_DATE_LENGTH = 40
DATE_HINT = "a date and time with an offset (RFC 3339), like 2027-06-01T19:30:00+02:00"


def date_problem(name: str, value: object) -> str | None:
    """Why `value` cannot be the pass's `name` date (None: it can)."""
    if not isinstance(value, str) or len(value) > MAX_DATE_LENGTH \
            or parse_datetime(value) is None:
        return f"{name} must be {DATE_HINT}."
    return None


def date_key(member: str) -> str:
    """The key an update's change of a pass date carries (`pass.expiresAt`): field keys
    have no dots, so it never names a field (nor gets a field's change message)."""
    return f"pass.{member}"


def image_key(slot: str) -> str:
    """The key an update's change of a per-pass image carries (`image.thumbnail`)."""
    return f"image.{slot}"


def image_slots(template_type: str) -> tuple[str, ...]:
    """The image slots a pass of this template type can set."""
    return IMAGE_SLOTS.get(template_type, IMAGE_SLOTS["generic"])


def expiry(own: str | None, definition: dict) -> str | None:
    """When the pass expires: its own date, else its template's `expiresAt`, else never."""
    if own:
        return own
    value = definition.get("expiresAt")
    return value if isinstance(value, str) and parse_datetime(value) else None


def is_expired(own: str | None, definition: dict, now: datetime) -> bool:
    """Whether the pass's expiry (`expiry`) has passed at `now` (an aware datetime)."""
    value = expiry(own, definition)
    moment = parse_datetime(value) if value else None
    return moment is not None and moment <= now
