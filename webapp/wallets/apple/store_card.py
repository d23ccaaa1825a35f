"""Apple's store card style (loyalty and gift cards) and coupon style (issue 32). Pure.

A store card's balance is its primary field (points as a decimal number, money as a number in
major units with `currencyCode`, which Wallet formats in the holder's locale); a loyalty
card's tier is its first header field, visible even when cards are stacked, and its colours
are the tier's. A coupon's offer title is its primary field when the template has none, and
its details and fine print are on the back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# Keys no template field can have (field keys have no dots): the changes of a balance
# transaction carry the same ones, so the right field gets the change message.
BALANCE_KEY, TIER_KEY = "pass.balance", "pass.tier"
STYLES = {"loyalty": "storeCard", "gift_card": "storeCard", "coupon": "coupon"}


@dataclass(frozen=True)
class Balance:
    """A balance as Apple shows it: `value` in points or major units, `currency` (ISO 4217)
    for money, else None; `label` the field's label."""

    value: int | float
    label: str
    currency: str | None = None


@dataclass(frozen=True)
class TierShown:
    """A loyalty tier as the pass shows it: its name and colours (`#rrggbb`, None: the
    template's)."""

    name: str
    background: str | None = None
    foreground: str | None = None
    label: str | None = None


def colors(template_colors: Mapping[str, Any], tier: TierShown | None) -> dict[str, Any]:
    """The template's colours with the tier's over them."""
    out = dict(template_colors)
    if tier is not None:
        for key in ("background", "foreground", "label"):
            if getattr(tier, key):
                out[key] = getattr(tier, key)
    return out


def add_fields(groups: dict[str, list[dict[str, Any]]], definition: Mapping[str, Any],
               balance: Balance | None, tier: TierShown | None, notify: frozenset[str]
               ) -> None:
    """Put the balance, the tier and the offer into the groups (before the limits apply:
    a template field pushed past them goes to the back)."""
    if balance is not None:
        item: dict[str, Any] = {"key": BALANCE_KEY, "label": balance.label,
                                "value": balance.value}
        if balance.currency:
            item["currencyCode"] = balance.currency
        else:
            item["numberStyle"] = "PKNumberStyleDecimal"
        if BALANCE_KEY in notify:
            item["changeMessage"] = _message(balance.label)
        groups["primaryFields"].insert(0, item)
    if tier is not None:
        shown = {"key": TIER_KEY, "label": "Tier", "value": tier.name}
        if TIER_KEY in notify:
            shown["changeMessage"] = _message("Tier")
        groups["headerFields"].insert(0, shown)
    offer = definition.get("offer")
    if definition.get("type") != "coupon" or not isinstance(offer, dict):
        return
    if not groups["primaryFields"] and offer.get("title"):
        groups["primaryFields"].append({"key": "offer.title",
                                        "label": str(offer.get("provider") or ""),
                                        "value": str(offer["title"])})
    for key, label in (("details", "Details"), ("finePrint", "Fine print")):
        if offer.get(key):
            groups["backFields"].append({"key": f"offer.{key}", "label": label,
                                         "value": str(offer[key])})


def _message(label: str) -> str:
    escaped = label.replace("%", "%%")
    return f"{escaped}: %@" if escaped else "%@"
