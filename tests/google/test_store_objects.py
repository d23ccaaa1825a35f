"""Google Wallet loyalty, gift card and offer classes and objects (issue 32), written to the
fake Google, which checks each body against the resource's members and rules (required
members, LoyaltyPoints, Money, redemption channels, unknown names refused)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import (
    coupon_definition,
    gift_card_definition,
    loyalty_definition,
)
from tests.api.test_balances import make
from tests.conftest import Api, upload_asset
from tests.google.conftest import ISSUER, issue
from tests.google.test_flow import save_via_page
from tests.support.fake_google import FakeGoogle


def move(api: Api, item: dict[str, Any], amount: int) -> dict[str, Any]:
    response = api.post(f"/v1/passes/{item['id']}/balance-transactions", {"amount": amount})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


@pytest.fixture
def loyalty(api: Api, png: Any) -> dict[str, Any]:
    return make(api, loyalty_definition(upload_asset(api, "logo", png(600, 150))))


def test_a_loyalty_card_is_a_loyalty_class_and_object(
        api: Api, fake_google: FakeGoogle, loyalty: dict[str, Any]) -> None:
    item = issue(api, loyalty, holderName="Ada Lovelace", balance=120)
    assert item["artifacts"]["google"] == {"ready": True, "reason": None}
    cls = fake_google.resource("loyaltyClass", f"{ISSUER}.{loyalty['id']}_r1")
    assert cls["programName"] == "Bean Club" and cls["issuerName"] == "Bean Club"
    assert cls["programLogo"]["sourceUri"]["uri"].endswith(
        loyalty["definition"]["images"]["logo"])
    assert cls["reviewStatus"] == "APPROVED" and cls["hexBackgroundColor"] == "#6b3e26"
    obj = fake_google.resource("loyaltyObject", f"{ISSUER}.{item['id']}")
    assert obj["loyaltyPoints"] == {"label": "Points", "balance": {"int": 120}}
    assert obj["secondaryLoyaltyPoints"] == {"label": "Tier", "balance": {"string": "Silver"}}
    assert (obj["accountId"], obj["accountName"]) == (item["shortId"], "Ada Lovelace")
    assert obj["barcode"]["value"] == item["shortId"]


def test_an_earn_updates_the_points_and_the_tier_and_notifies(
        api: Api, fake_google: FakeGoogle, loyalty: dict[str, Any]) -> None:
    item = issue(api, loyalty, balance=990)
    assert save_via_page(api, fake_google, item).status_code == 200
    body = move(api, item, 20)
    obj = fake_google.resource("loyaltyObject", f"{ISSUER}.{item['id']}")
    assert obj["loyaltyPoints"]["balance"] == {"int": 1010}
    assert obj["secondaryLoyaltyPoints"]["balance"] == {"string": "Gold"}
    [update] = api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"]
    assert update["delivery"]["google"] == {
        "status": "updated", "message": "Points: 1,010\nTier: Gold", "error": None}
    assert body["pass"]["tier"] == "Gold"
    assert len(fake_google.state.notifications[f"{ISSUER}.{item['id']}"]) == 1


def test_an_external_id_is_the_account_id(api: Api, fake_google: FakeGoogle,
                                          loyalty: dict[str, Any]) -> None:
    job = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": loyalty["id"],
                                     "items": [{"externalId": "M-1001", "balance": 5}]})
    assert job.status_code in (201, 202), job.get_json()
    [item] = api.get("/v1/passes").get_json()["data"]
    obj = fake_google.resource("loyaltyObject", f"{ISSUER}.{item['id']}")
    assert obj["accountId"] == "M-1001" and obj["loyaltyPoints"]["balance"] == {"int": 5}


def test_a_gift_card_is_a_gift_card_class_and_object(api: Api, fake_google: FakeGoogle
                                                     ) -> None:
    template = make(api, gift_card_definition("EUR", barcode={"format": "code128",
                                                              "perPass": True}))
    item = issue(api, template, balance=2550, barcodeValue="GC-0001")
    cls = fake_google.resource("giftCardClass", f"{ISSUER}.{template['id']}_r1")
    assert cls["merchantName"] == "Bean Club" and cls["issuerName"] == "Bean Club"
    obj = fake_google.resource("giftCardObject", f"{ISSUER}.{item['id']}")
    assert obj["cardNumber"] == "GC-0001"
    assert obj["balance"] == {"micros": "25500000", "currencyCode": "EUR"}
    assert obj["balanceUpdateTime"]["date"].endswith("Z")
    move(api, item, -550)
    obj = fake_google.resource("giftCardObject", f"{ISSUER}.{item['id']}")
    assert obj["balance"] == {"micros": "20000000", "currencyCode": "EUR"}


def test_a_gift_card_without_a_per_pass_barcode_uses_the_short_id(
        api: Api, fake_google: FakeGoogle) -> None:
    template = make(api, gift_card_definition("JPY"))
    item = issue(api, template, balance=1200)
    obj = fake_google.resource("giftCardObject", f"{ISSUER}.{item['id']}")
    assert obj["cardNumber"] == item["shortId"]
    assert obj["balance"] == {"micros": "1200000000", "currencyCode": "JPY"}


def test_a_coupon_is_an_offer_class_and_object(api: Api, fake_google: FakeGoogle) -> None:
    template = make(api, coupon_definition())
    item = issue(api, template)
    cls = fake_google.resource("offerClass", f"{ISSUER}.{template['id']}_r1")
    assert (cls["title"], cls["provider"], cls["redemptionChannel"]) == (
        "2 for 1 coffee", "Bean Club", "BOTH")
    assert (cls["details"], cls["finePrint"]) == ("Any two coffees.", "Once per visit.")
    obj = fake_google.resource("offerObject", f"{ISSUER}.{item['id']}")
    assert obj["state"] == "ACTIVE" and "loyaltyPoints" not in obj
    assert api.post(f"/v1/passes/{item['id']}/redemptions").status_code == 201
    obj = fake_google.resource("offerObject", f"{ISSUER}.{item['id']}")
    assert any(m["id"] == "checked-in" for m in obj["textModulesData"])


def test_the_fake_refuses_what_google_refuses(fake_google: FakeGoogle) -> None:
    from tests.support.fake_google import _store_problem

    loyalty = {"id": "1.a", "issuerName": "X", "programName": "P", "reviewStatus": "UNDER_REVIEW",
               "programLogo": {"sourceUri": {"uri": "https://x/logo"}}}
    assert _store_problem("loyaltyClass", loyalty) is None
    assert "Unknown name" in str(_store_problem("loyaltyClass", {**loyalty, "logo": {}}))
    assert _store_problem("loyaltyObject", {"loyaltyPoints": {
        "balance": {"int": 1, "string": "1"}}}) is not None
    assert _store_problem("giftCardObject", {"balance": {"micros": 5}}) is not None
    assert _store_problem("offerClass", {"redemptionChannel": "SOMETIMES"}) is not None
