"""Balances of loyalty cards (points) and gift cards (money in minor units): which template
types keep one, ISO 4217 currencies, loyalty tiers, and how an amount reads. Pure.

A loyalty pass's tier is chosen by its lifetime points (every earn, the opening balance
included; spends never lower them), so spending never demotes a holder.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

# Template type -> what its balance counts.
BALANCE_TYPES: dict[str, str] = {"loyalty": "points", "gift_card": "money"}
# An amount or a balance is at most this (in points or minor units): 10^12 is ten billion
# euros in cents, and stays exact in every JSON reader (below 2^53).
MAX_BALANCE = 10**12
DEFAULT_POINTS_LABEL = "Points"
BALANCE_KEY = "balance"  # the key of the balance field (Apple) and of its changes
TIER_KEY = "tier"

# ISO 4217 active codes and their minor units (digits after the decimal point); funds and
# precious metals (XAU, XDR...) are left out: no gift card holds them.
_CURRENCIES_0 = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
_CURRENCIES_3 = "BHD IQD JOD KWD LYD OMR TND"
_CURRENCIES_4 = "CLF UYW"
_CURRENCIES_2 = (
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN "
    "BZD CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS "
    "GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR "
    "LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD "
    "PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN "
    "SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UZS VED VES WST XCD XCG YER ZAR ZMW "
    "ZWG")
CURRENCIES: dict[str, int] = {
    code: digits for digits, codes in ((0, _CURRENCIES_0), (2, _CURRENCIES_2),
                                       (3, _CURRENCIES_3), (4, _CURRENCIES_4))
    for code in codes.split()}


@dataclass(frozen=True)
class Tier:
    """A loyalty tier: its name, the lifetime points it starts at, and its colours (None:
    the template's)."""

    name: str
    min_lifetime_points: int
    background: str | None = None
    foreground: str | None = None
    label: str | None = None


def balance_kind(template_type: object) -> str | None:
    """`points`, `money`, or None for a template type that keeps no balance."""
    return BALANCE_TYPES.get(template_type) if isinstance(template_type, str) else None


def loyalty(definition: dict[str, Any]) -> dict[str, Any]:
    """The definition's `loyalty` member ({} when absent or not an object)."""
    member = definition.get("loyalty")
    return member if isinstance(member, dict) else {}


def points_label(definition: dict[str, Any]) -> str:
    """What a loyalty card calls its points ("Points" when the template does not say)."""
    label = loyalty(definition).get("pointsLabel")
    return label if isinstance(label, str) and label else DEFAULT_POINTS_LABEL


def currency(definition: dict[str, Any]) -> str | None:
    """A gift card's ISO 4217 currency (None: not a gift card, or none given)."""
    member = definition.get("giftCard")
    code = member.get("currency") if isinstance(member, dict) else None
    return code if isinstance(code, str) and code in CURRENCIES else None


def tiers(definition: dict[str, Any]) -> list[Tier]:
    """The loyalty tiers in their order (lowest first); [] when there are none."""
    out = []
    for item in loyalty(definition).get("tiers") or []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        points = item.get("minLifetimePoints")
        out.append(Tier(item["name"], points if isinstance(points, int) else 0,
                        item.get("backgroundColor"), item.get("foregroundColor"),
                        item.get("labelColor")))
    return out


def tier_for(definition: dict[str, Any], lifetime_points: int | None) -> Tier | None:
    """The highest tier whose minimum `lifetime_points` reach (None: no tiers)."""
    if lifetime_points is None:
        return None
    found = None
    for tier in tiers(definition):
        if lifetime_points >= tier.min_lifetime_points:
            found = tier
    return found


def colors(definition: dict[str, Any], tier: Tier | None) -> dict[str, str]:
    """The template's colours with the tier's over them."""
    out = dict(definition.get("colors") or {})
    if tier is not None:
        for key, value in (("background", tier.background), ("foreground", tier.foreground),
                           ("label", tier.label)):
            if value:
                out[key] = value
    return out


def major_units(amount: int, code: str) -> Decimal:
    """`amount` minor units of `code` as a decimal in major units (1250 EUR -> 12.50)."""
    digits = CURRENCIES.get(code, 2)
    return Decimal(amount).scaleb(-digits).quantize(Decimal(1).scaleb(-digits))


def shown(definition: dict[str, Any], amount: int | None) -> str | None:
    """A balance as text: `1,250` points, `12.50 EUR`."""
    if amount is None:
        return None
    code = currency(definition)
    if definition.get("type") == "gift_card" and code is not None:
        return f"{major_units(amount, code):,} {code}"
    return f"{amount:,}"
