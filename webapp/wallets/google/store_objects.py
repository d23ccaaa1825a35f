"""Google Wallet loyalty, gift card and offer classes and objects (issue 32). Pure.

Loyalty: `loyaltyClass` (programName, programLogo: required, hence the template's logo) and
`loyaltyObject` with `loyaltyPoints` (the points label and `balance.int`), the tier as
`secondaryLoyaltyPoints` with a string balance (shown beside the points on the card's front;
the class's `rewardsTier` is one text for every pass, so it cannot say each pass's tier),
`accountId` and `accountName`. Gift cards: `giftCardClass` and `giftCardObject` with
`cardNumber`, `balance {micros, currencyCode}` and `balanceUpdateTime`. Coupons: `offerClass`
(title, provider, details, finePrint; redeemable in store and online) and `offerObject`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

KINDS = {"loyalty": ("loyaltyClass", "loyaltyObject"),
         "gift_card": ("giftCardClass", "giftCardObject"),
         "coupon": ("offerClass", "offerObject")}
Image = Callable[[str], dict[str, Any]]  # an asset ID -> a Google Image


@dataclass(frozen=True)
class Balance:
    """A pass's balance for Google: `amount` in points, or in minor units of `currency`
    (`digits` after the decimal point); its tier's name; the account it names."""

    amount: int
    label: str = "Points"
    currency: str | None = None
    digits: int = 2
    tier: str | None = None
    account_id: str = ""
    updated_at: datetime | None = None


def class_members(template_type: str, definition: dict[str, Any], logo: str | None,
                  image: Image, signup_url: str | None = None) -> dict[str, Any]:
    """The members of a store type's class beyond its ID, look and callbacks; a loyalty
    programme's sign-up page (`signup_url`) is its `discoverableProgram`, so Google Wallet
    can send people searching for the programme there (once Google enables it)."""
    issuer = str(definition.get("organizationName") or "")[:64]
    body: dict[str, Any] = {"issuerName": issuer, "reviewStatus": "UNDER_REVIEW"}
    if template_type == "loyalty":
        loyalty = _member(definition, "loyalty")
        body["programName"] = str(loyalty.get("programName") or issuer)
        if logo:
            body["programLogo"] = image(logo)
        body["accountIdLabel"] = "Member ID"
        body["accountNameLabel"] = "Member"
        if signup_url:
            body["discoverableProgram"] = {
                "merchantSignupInfo": {"signupWebsite": {"uri": signup_url}}}
    elif template_type == "gift_card":
        body["merchantName"] = issuer
        if logo:
            body["programLogo"] = image(logo)
    else:
        offer = _member(definition, "offer")
        body.update({"title": str(offer.get("title") or definition.get("description") or ""),
                     "provider": str(offer.get("provider") or issuer),
                     "redemptionChannel": "BOTH"})
        for key in ("details", "finePrint"):
            if offer.get(key):
                body[key] = str(offer[key])
        if logo:
            body["titleImage"] = image(logo)
    return body


def object_members(template_type: str, balance: Balance | None, holder_name: str | None,
                   card_number: str) -> dict[str, Any]:
    """The members of a store type's object beyond its ID, state, modules and barcode."""
    if balance is None:
        return {}
    if template_type == "loyalty":
        body: dict[str, Any] = {
            "accountId": balance.account_id,
            "loyaltyPoints": {"label": balance.label, "balance": {"int": balance.amount}}}
        if holder_name:
            body["accountName"] = holder_name
        if balance.tier:
            body["secondaryLoyaltyPoints"] = {"label": "Tier",
                                              "balance": {"string": balance.tier}}
        return body
    if template_type == "gift_card":
        body = {"cardNumber": card_number, "balance": {
            "micros": str(balance.amount * 10 ** (6 - balance.digits)),
            "currencyCode": balance.currency or ""}}
        if balance.updated_at is not None:
            moment = balance.updated_at.astimezone(UTC).isoformat(timespec="seconds")
            body["balanceUpdateTime"] = {"date": moment.replace("+00:00", "Z")}
        return body
    return {}


def _member(obj: dict[str, Any], key: str) -> dict[str, Any]:
    value = obj.get(key)
    return value if isinstance(value, dict) else {}
