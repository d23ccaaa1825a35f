"""The scanner and balances (issue 32): a loyalty card shows its points and tier with "Add
points" and "Spend", a gift card its balance with "Charge" (source `scanner`); a coupon is
redeemed like a ticket."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.api.factories import (
    coupon_definition,
    gift_card_definition,
    loyalty_definition,
    store_body,
)
from tests.conftest import Api, upload_asset
from tests.dashboard.conftest import Dash, text
from tests.dashboard.test_scanner import _attr, _scanner, _verdict

BALANCE = "/dashboard/test/scan/balance"


def issue(api: Api, definition: dict[str, Any], **body: Any) -> dict[str, Any]:
    template = api.post("/v1/templates", store_body(definition)).get_json()
    response = api.post("/v1/passes", {"templateId": template["id"], "holderName": "Ada",
                                       **body})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def test_a_loyalty_card_shows_points_and_takes_earns_and_spends(
        app: Flask, dash: Dash, api: Api, png: Any) -> None:
    card = issue(api, loyalty_definition(upload_asset(api, "logo", png(160, 50))),
                 balance=990)
    scanner = _scanner(app, dash)
    html = text(_verdict(scanner, card["shortId"]))
    assert _attr(html, "data-verdict") == "balance" and "Loyalty card" in html
    assert 'data-testid="scan-balance">990<' in html and 'data-testid="scan-tier">Silver<' in html
    assert "Add points" in html and "Spend" in html
    earned = text(scanner.post(BALANCE, {"pass_id": card["id"], "amount": "20",
                                         "direction": "earn"}, htmx=True))
    assert 'data-testid="scan-balance">1,010<' in earned and "Added 20" in earned
    assert 'data-testid="scan-tier">Gold<' in earned
    refused = text(scanner.post(BALANCE, {"pass_id": card["id"], "amount": "5000",
                                          "direction": "spend"}, htmx=True))
    assert "The pass&#39;s balance is 1,010: it cannot spend 5,000." in refused
    assert "Spent 10" in text(scanner.post(BALANCE, {"pass_id": card["id"], "amount": "10",
                                                     "direction": "spend"}, htmx=True))
    [spend, earn, _] = api.get(f"/v1/passes/{card['id']}/balance-transactions").get_json()[
        "data"]
    assert (spend["source"], spend["amount"], earn["amount"]) == ("scanner", -10, 20)
    assert api.get(f"/v1/passes/{card['id']}/redemptions").get_json()["data"] == []


def test_a_gift_card_is_charged_from_the_scanner(dash: Dash, api: Api) -> None:
    item = issue(api, gift_card_definition(), balance=2500)
    html = text(_verdict(dash, item["shortId"]))
    assert "Gift card" in html and "25.00 EUR" in html and ">Charge<" in html
    assert "Add points" not in html
    charged = text(dash.post(BALANCE, {"pass_id": item["id"], "amount": "4.50",
                                       "direction": "spend"}, htmx=True))
    assert "20.50 EUR" in charged and "Charged." in charged
    bad = text(dash.post(BALANCE, {"pass_id": item["id"], "amount": "abc",
                                   "direction": "spend"}, htmx=True))
    assert "Enter an amount with at most 2 decimals" in bad
    assert api.get(f"/v1/passes/{item['id']}").get_json()["balance"] == 2050


def test_a_coupon_is_redeemed_like_a_ticket(dash: Dash, api: Api) -> None:
    item = issue(api, coupon_definition())
    assert _attr(text(_verdict(dash, item["shortId"])), "data-verdict") == "valid"
    again = text(_verdict(dash, item["shortId"]))
    assert _attr(again, "data-code") == "already_redeemed"


def test_another_organization_s_pass_is_not_moved(dash: Dash, other_api: Api) -> None:
    item = issue(other_api, gift_card_definition(), balance=100)
    response = dash.post(BALANCE, {"pass_id": item["id"], "amount": "1",
                                   "direction": "spend"}, htmx=True)
    assert response.status_code == 404
    assert other_api.get(f"/v1/passes/{item['id']}").get_json()["balance"] == 100
