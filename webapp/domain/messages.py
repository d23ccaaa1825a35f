"""The rules of a message to pass holders (issue 33): text lengths, the audience's shape,
when it may be sent. Pure: values in, a problem or a value out.

Lengths are what both wallets show whole: Google's message `header` (35 characters) and
`body` (500); Apple shows more, but one text goes to both wallets.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from webapp.domain import text as text_rules
from webapp.domain.formats import parse_datetime

HEADER_MAX = 35
BODY_MAX = 500
PASS_IDS_MAX = 1000  # larger audiences are named by a filter
SEARCH_MAX = 200  # as GET /v1/passes's `search`
FILTERS = ("templateId", "tag", "search")
# A `sendAt` this little in the past is "now" (clocks differ, a form took a minute); more is
# refused: a message going out at once when its sender meant another day is not undone.
PAST_GRACE = timedelta(minutes=5)
FUTURE_MAX = timedelta(days=90)
SEND_AT_HINT = "a date and time with an offset (ISO 8601), like 2027-06-01T09:00:00+02:00"


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    param: str


def text_problem(name: str, value: str, limit: int) -> Problem | None:
    """What is wrong with a header or body (`name`), if anything."""
    if not value.strip():
        return Problem("parameter_invalid", f"{name} must not be empty.", name)
    if len(value) > limit:
        return Problem("message_too_long", f"{name} must be at most {limit} characters (what "
                       f"Google Wallet shows whole); it has {len(value)}.", name)
    found = text_rules.problem(value)
    if found is not None:
        return Problem("parameter_invalid", f"{name} {found}.", name)
    return None


def audience_problem(audience: dict[str, Any]) -> Problem | None:
    """Whether the audience names passes one way: `passIds`, or filters."""
    if "passIds" in audience:
        other = next((name for name in FILTERS if name in audience), None)
        if other is not None:
            return Problem("audience_invalid", "An audience is either passIds or filters "
                           "(templateId, tag, search), not both.", f"audience.{other}")
        if not audience["passIds"]:
            return Problem("parameter_invalid", "passIds must name at least one pass.",
                           "audience.passIds")
        if len(audience["passIds"]) > PASS_IDS_MAX:
            return Problem("parameter_invalid", f"passIds may name at most {PASS_IDS_MAX} "
                           "passes; name a larger audience by templateId, tag or search.",
                           "audience.passIds")
        return None
    search = audience.get("search")
    if isinstance(search, str) and len(search) > SEARCH_MAX:
        return Problem("parameter_invalid", f"search may be at most {SEARCH_MAX} characters.",
                       "audience.search")
    if not any(audience.get(name) is not None for name in FILTERS):
        return Problem("audience_invalid", "Name the audience: passIds, or at least one of "
                       "templateId, tag and search.", "audience")
    return None


def send_time(value: str, now: datetime) -> tuple[datetime | None, Problem | None]:
    """When a message with this `sendAt` goes out (None: at once), or why it cannot."""
    moment = parse_datetime(value) if len(value) <= 40 else None
    if moment is None:
        return None, Problem("parameter_invalid", f"sendAt must be {SEND_AT_HINT}.", "sendAt")
    if moment < now - PAST_GRACE:
        return None, Problem("send_at_in_past", "sendAt is in the past; leave it out to send "
                             "now.", "sendAt")
    if moment > now + FUTURE_MAX:
        return None, Problem("send_at_too_far", "sendAt may be at most 90 days ahead.",
                             "sendAt")
    return (moment if moment > now else None), None
