"""Apple Wallet store cards (loyalty, gift cards) and coupons (issue 32): the balance as the
primary field, the tier as a header field with its colours, money with `currencyCode`, a
coupon's offer; each bundle checked offline by `tests/apple/validate.py`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import (
    coupon_definition,
    gift_card_definition,
    loyalty_definition,
)
from tests.api.test_balances import make
from tests.apple import validate
from tests.apple.test_pkpass import download, valid
from tests.conftest import Api, upload_asset
from webapp.wallets.apple import pass_json


def issue(api: Api, template: dict[str, Any], **body: Any) -> dict[str, Any]:
    response = api.post("/v1/passes", {"templateId": template["id"], "holderName": "Ada",
                                       "fieldValues": {"member": "Ada"}, **body})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def move(api: Api, item: dict[str, Any], amount: int, **body: Any) -> None:
    response = api.post(f"/v1/passes/{item['id']}/balance-transactions",
                        {"amount": amount, **body})
    assert response.status_code == 201, response.get_json()


@pytest.fixture
def loyalty(api: Api, png: Any) -> dict[str, Any]:
    images = {"logo": upload_asset(api, "logo", png(600, 150)),
              "strip": upload_asset(api, "strip", png(1125, 432))}
    return make(api, loyalty_definition(images["logo"], images=images))


def test_a_loyalty_card_is_a_store_card_with_its_points_and_tier(
        client: Any, api: Api, loyalty: dict[str, Any]) -> None:
    doc, names = valid(download(client, issue(api, loyalty, balance=120)))
    card = doc["storeCard"]
    assert card["primaryFields"] == [{"key": "pass.balance", "label": "Points", "value": 120,
                                      "numberStyle": "PKNumberStyleDecimal"}]
    assert card["headerFields"] == [{"key": "pass.tier", "label": "Tier", "value": "Silver"}]
    assert card["secondaryFields"] == [{"key": "member", "label": "Member", "value": "Ada"}]
    assert doc["backgroundColor"] == "rgb(107, 62, 38)"  # Silver has no colours of its own
    assert {"logo.png", "strip.png", "icon.png"} <= set(names)
    assert "thumbnail.png" not in names


def test_an_earn_announces_the_points_and_the_new_tier_in_its_colours(
        client: Any, api: Api, loyalty: dict[str, Any]) -> None:
    item = issue(api, loyalty, balance=990)
    move(api, item, 20)
    doc, _ = valid(download(client, item))
    card = doc["storeCard"]
    assert card["primaryFields"][0]["value"] == 1010
    assert card["primaryFields"][0]["changeMessage"] == "Points: %@"
    assert card["headerFields"][0] == {"key": "pass.tier", "label": "Tier", "value": "Gold",
                                       "changeMessage": "Tier: %@"}
    assert (doc["backgroundColor"], doc["foregroundColor"], doc["labelColor"]) == (
        "rgb(31, 31, 31)", "rgb(245, 208, 97)", "rgb(255, 255, 255)")
    move(api, item, -10, notificationMode="silent")
    quiet, _ = valid(download(client, item))
    assert quiet["storeCard"]["primaryFields"] == [
        {"key": "pass.balance", "label": "Points", "value": 1000,
         "numberStyle": "PKNumberStyleDecimal"}]
    assert quiet["backgroundColor"] == "rgb(31, 31, 31)"  # spending never demotes


def test_a_balance_change_is_a_wallet_update_to_push(api: Api, loyalty: dict[str, Any]
                                                     ) -> None:
    item = issue(api, loyalty, balance=5)
    move(api, item, 5)
    [update] = api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"]
    assert update["walletChanged"] is True and update["kind"] == "update"
    assert update["delivery"]["apple"]["status"] in ("pending", "no_devices")
    after = api.get(f"/v1/passes/{item['id']}").get_json()
    assert after["walletUpdatedAt"] > item["walletUpdatedAt"]


@pytest.mark.parametrize(("currency", "balance", "value"), [
    ("EUR", 2550, 25.5), ("JPY", 1200, 1200), ("KWD", 12345, 12.345)])
def test_a_gift_card_shows_money_with_its_currency(client: Any, api: Api, currency: str,
                                                   balance: int, value: Any) -> None:
    item = issue(api, make(api, gift_card_definition(currency)), balance=balance)
    doc, _ = valid(download(client, item))
    [field] = doc["storeCard"]["primaryFields"]
    assert field == {"key": "pass.balance", "label": "Balance", "value": value,
                     "currencyCode": currency}
    assert type(field["value"]) is type(value)
    assert "headerFields" not in doc["storeCard"]


def test_a_coupon_shows_its_offer(client: Any, api: Api) -> None:
    item = issue(api, make(api, coupon_definition()))
    doc, _ = valid(download(client, item))
    coupon = doc["coupon"]
    assert coupon["primaryFields"] == [{"key": "offer.title", "label": "Bean Club",
                                        "value": "2 for 1 coffee"}]
    back = {f["key"]: f["value"] for f in coupon["backFields"]}
    assert back == {"offer.details": "Any two coffees.", "offer.finePrint": "Once per visit."}


def test_a_template_primary_field_gives_way_to_the_balance() -> None:
    definition = gift_card_definition(config={"fields": {"primary": [
        {"key": "name", "label": "Name", "binding": "shared", "value": "Ada"}]}})
    content = pass_json.PassContent(
        serial_number="pass_1", pass_type_identifier="pass.x", team_identifier="T",
        field_values={}, barcode_message="X",
        balance=pass_json.store_card.Balance(12.5, "Balance", "EUR"))
    doc = pass_json.render(definition, content)
    assert [f["key"] for f in doc["storeCard"]["primaryFields"]] == ["pass.balance"]
    assert [f["key"] for f in doc["storeCard"]["backFields"]] == ["name"]
    assert validate.pass_json_problems(doc) == []


def test_the_validator_knows_the_store_card_and_coupon_rules() -> None:
    square = [{"format": "PKBarcodeFormatQR"}]
    five = {"secondaryFields": [{"key": f"s{n}", "value": "x"} for n in range(3)],
            "auxiliaryFields": [{"key": f"a{n}", "value": "x"} for n in range(2)]}
    assert validate.field_problems(five, "storeCard", square) == [
        "storeCard with square barcode: more than 4 secondary+auxiliary fields"]
    money = {"primaryFields": [{"key": "b", "value": "12.50", "currencyCode": "EUR"}]}
    assert validate.field_problems(money, "storeCard", []) == [
        "currencyCode/numberStyle on b: value is not a number"]
