"""The definition members of the balance and offer template types (issue 32), checked by
`definition`'s checker: `loyalty` (loyalty cards), `giftCard` (gift cards), `offer` (coupons).

Each is required on its type and refused on the others; a loyalty template needs a logo
(Google's loyalty class cannot be written without its `programLogo`).
"""

from __future__ import annotations

import re
from typing import Any

from webapp.domain.balances import CURRENCIES, MAX_BALANCE

# Template type -> its own definition member.
MEMBERS: dict[str, str] = {"loyalty": "loyalty", "gift_card": "giftCard", "coupon": "offer"}
MAX_TIERS = 10
_LOYALTY = {"programName": True, "pointsLabel": False, "tiers": False}
_TIER = {"name": True, "minLifetimePoints": True, "backgroundColor": False,
         "foregroundColor": False, "labelColor": False}
_GIFT_CARD = {"currency": True}
_OFFER = {"title": True, "provider": True, "details": False, "finePrint": False}
_TIER_COLORS = ("backgroundColor", "foregroundColor", "labelColor")
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


def _name(path: tuple[str | int, ...]) -> str:
    out = ""
    for token in path:
        out += f"[{token}]" if isinstance(token, int) else ("." if out else "") + token
    return out


def check(checker: Any, d: dict, kind: str | None) -> None:
    """Each type's member: present on its own type, refused elsewhere, then its content."""
    for template_type, member in MEMBERS.items():
        if member not in d:
            if kind == template_type:
                checker.add((member,), "required",
                            f"{member} is required for a {template_type} template.")
        elif kind is not None and kind != template_type:
            checker.add((member,), "not_allowed",
                        f"{member} is only allowed on {template_type} templates.")
        else:
            {"loyalty": _loyalty, "giftCard": _gift_card, "offer": _offer}[member](
                checker, d[member], (member,))
    if kind == "loyalty":
        images = d.get("images")
        logo = images.get("logo") if isinstance(images, dict) else None
        if not isinstance(logo, str):
            checker.add(("images", "logo"), "required",
                        "images.logo is required on a loyalty template: Google Wallet's "
                        "loyalty class shows it as its programLogo.")


def _loyalty(checker: Any, value: object, path: tuple) -> None:
    d = checker.expect_object(value, path)
    if d is None:
        return
    checker.members(d, path, _LOYALTY, "loyalty has programName, pointsLabel and tiers")
    if "programName" in d:
        checker.expect_string(d, "programName", path, 1, 64)
    if "pointsLabel" in d:
        checker.expect_string(d, "pointsLabel", path, 1, 32)
    if "tiers" in d:
        _tiers(checker, d["tiers"], (*path, "tiers"))


def _tiers(checker: Any, value: object, path: tuple) -> None:
    array = checker.expect_array(value, path)
    if array is None:
        return
    if not array:
        checker.add(path, "too_short",
                    "loyalty.tiers must hold at least one tier (leave it out for none).")
    if len(array) > MAX_TIERS:  # the tiers past the limit are not looked at
        checker.add(path, "too_many", f"loyalty.tiers can hold at most {MAX_TIERS} tiers.")
    names: set[str] = set()
    previous: int | None = None
    for index, item in enumerate(array[:MAX_TIERS]):
        item_path = (*path, index)
        d = checker.expect_object(item, item_path)
        if d is None:
            previous = None
            continue
        checker.members(d, item_path, _TIER, "a tier has name, minLifetimePoints, "
                                             "backgroundColor, foregroundColor and labelColor")
        if "name" in d:
            name = checker.expect_string(d, "name", item_path, 1, 32)
            if name is not None and name in names:
                checker.add((*item_path, "name"), "duplicate_key",
                            f"{_name((*item_path, 'name'))} is {name}, which an earlier tier "
                            "already uses.")
            names.add(name or "")
        previous = _tier_points(checker, d, item_path, index, previous)
        for key in _TIER_COLORS:
            if key in d and (not isinstance(d[key], str) or not _COLOR.fullmatch(d[key])):
                checker.add((*item_path, key), "invalid_color",
                            f"{_name((*item_path, key))} must be a colour like #1a2b3c.")


def _tier_points(checker: Any, d: dict, path: tuple, index: int, previous: int | None
                 ) -> int | None:
    """Check a tier's minLifetimePoints (the first 0, then rising); the value, or None."""
    if "minLifetimePoints" not in d:
        return None
    member = (*path, "minLifetimePoints")
    points = d["minLifetimePoints"]
    if not isinstance(points, int) or isinstance(points, bool):
        checker.wrong_type(member, "an integer", points)
        return None
    if index == 0 and points != 0:
        checker.add(member, "invalid_value",
                    f"{_name(member)} must be 0: every card starts in the first tier.")
    elif not 0 <= points <= MAX_BALANCE:
        checker.add(member, "out_of_range",
                    f"{_name(member)} must be between 0 and {MAX_BALANCE:,}.")
    elif previous is not None and points <= previous:
        checker.add(member, "invalid_range",
                    f"{_name(member)} must be more than the tier before's ({previous:,}): "
                    "tiers go from the lowest to the highest.")
    return points


def _gift_card(checker: Any, value: object, path: tuple) -> None:
    d = checker.expect_object(value, path)
    if d is None:
        return
    checker.members(d, path, _GIFT_CARD, "giftCard has only currency")
    if "currency" in d:
        code = d["currency"]
        member = (*path, "currency")
        if not isinstance(code, str):
            checker.wrong_type(member, "a string", code)
        elif code not in CURRENCIES:
            checker.add(member, "invalid_value",
                        "giftCard.currency must be an ISO 4217 currency code in capitals, "
                        "like EUR or USD.")


def _offer(checker: Any, value: object, path: tuple) -> None:
    d = checker.expect_object(value, path)
    if d is None:
        return
    checker.members(d, path, _OFFER, "offer has title, provider, details and finePrint")
    for key, low, high in (("title", 1, 100), ("provider", 1, 64), ("details", 0, 2000),
                           ("finePrint", 0, 2000)):
        if key in d:
            checker.expect_string(d, key, path, low, high)
