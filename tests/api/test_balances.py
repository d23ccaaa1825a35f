"""Loyalty cards, gift cards and coupons (issue 32): the template types and their members,
a pass's opening balance, and the ledger (POST/GET /v1/passes/<id>/balance-transactions).

Every refusal is answered exactly; bad input is a 400, never a 500; a refused movement
changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.api.factories import (
    coupon_definition,
    gift_card_definition,
    loyalty_definition,
    store_body,
    template_body,
)
from tests.conftest import Api, assert_error, upload_asset

BTX_ID = re.compile(r"^btx_[0-9a-z]{26}$")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


@pytest.fixture
def logo(api: Api, png: Any) -> str:
    return upload_asset(api, "logo", png(160, 50))


def make(api: Api, definition: dict[str, Any]) -> dict[str, Any]:
    response = api.post("/v1/templates", store_body(definition))
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def issue(api: Api, template: dict[str, Any], **body: Any) -> dict[str, Any]:
    response = api.post("/v1/passes", {"templateId": template["id"], "holderName": "Ada",
                                       **body})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


@pytest.fixture
def card(api: Api, logo: str) -> dict[str, Any]:
    """A loyalty pass opened with 100 points."""
    return issue(api, make(api, loyalty_definition(logo)), balance=100)


def move(api: Api, pass_id: str, body: Any, **kw: Any) -> Any:
    return api.post(f"/v1/passes/{pass_id}/balance-transactions", body, **kw)


def movements(api: Api, pass_id: str, query: str = "") -> dict[str, Any]:
    response = api.get(f"/v1/passes/{pass_id}/balance-transactions{query}")
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def issues_of(response: Any) -> list[tuple[str, str]]:
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition")
    return [(issue["path"], issue["code"]) for issue in error["issues"]]


# ---- template types ------------------------------------------------------------------------

def test_the_three_types_are_created_with_their_members(api: Api, logo: str) -> None:
    for definition in (loyalty_definition(logo), gift_card_definition(), coupon_definition()):
        template = make(api, definition)
        assert template["type"] == definition["type"]
        assert template["definition"] == definition
    listed = api.get("/v1/templates?type=gift_card").get_json()["data"]
    assert [t["type"] for t in listed] == ["gift_card"]


def test_a_loyalty_template_without_a_logo_is_refused_naming_it(api: Api, logo: str) -> None:
    definition = loyalty_definition(logo)
    del definition["images"]
    response = api.post("/v1/templates", store_body(definition))
    assert issues_of(response) == [("/images/logo", "required")]
    message = response.get_json()["error"]["issues"][0]["message"]
    assert message.startswith("images.logo is required on a loyalty template")
    assert "programLogo" in message


@pytest.mark.parametrize(("tiers", "expected"), [
    ([{"name": "Silver", "minLifetimePoints": 10}], [("/loyalty/tiers/0/minLifetimePoints",
                                                      "invalid_value")]),
    ([{"name": "Silver", "minLifetimePoints": 0}, {"name": "Gold", "minLifetimePoints": 0}],
     [("/loyalty/tiers/1/minLifetimePoints", "invalid_range")]),
    ([{"name": "Gold", "minLifetimePoints": 0}, {"name": "Gold", "minLifetimePoints": 5}],
     [("/loyalty/tiers/1/name", "duplicate_key")]),
    ([{"name": "Silver", "minLifetimePoints": "0"}],
     [("/loyalty/tiers/0/minLifetimePoints", "invalid_type")]),
    ([{"name": "Silver", "minLifetimePoints": 0, "backgroundColor": "gold"}],
     [("/loyalty/tiers/0/backgroundColor", "invalid_color")]),
    ([{"name": "Silver", "minLifetimePoints": 0, "badge": "x"}],
     [("/loyalty/tiers/0/badge", "unknown_member")]),
    ([], [("/loyalty/tiers", "too_short")]),
    ([{"name": "", "minLifetimePoints": 0}], [("/loyalty/tiers/0/name", "too_short")]),
])
def test_tiers_are_ordered_and_start_at_zero(api: Api, logo: str, tiers: Any,
                                             expected: list[tuple[str, str]]) -> None:
    definition = loyalty_definition(logo)
    definition["loyalty"]["tiers"] = tiers
    assert issues_of(api.post("/v1/templates", store_body(definition))) == expected


@pytest.mark.parametrize("currency", ["eur", "EURO", "XXX", "", 978, None])
def test_a_gift_card_currency_is_iso_4217(api: Api, currency: Any) -> None:
    response = api.post("/v1/templates", store_body(gift_card_definition(currency)))
    code = "invalid_value" if isinstance(currency, str) else "invalid_type"
    assert issues_of(response) == [("/giftCard/currency", code)]


def test_each_member_belongs_to_its_own_type(api: Api, logo: str) -> None:
    definition = gift_card_definition()
    del definition["giftCard"]
    definition["offer"] = coupon_definition()["offer"]
    response = api.post("/v1/templates", store_body(definition))
    assert issues_of(response) == [("/offer", "not_allowed"), ("/giftCard", "required")]
    generic = template_body(loyalty={"programName": "X"})
    assert issues_of(api.post("/v1/templates", generic)) == [("/loyalty", "not_allowed")]
    offer = coupon_definition()
    offer["offer"] = {"title": "", "details": 5}
    assert issues_of(api.post("/v1/templates", store_body(offer))) == [
        ("/offer/title", "too_short"), ("/offer/details", "invalid_type"),
        ("/offer/provider", "required")]


def test_store_types_refuse_images_no_wallet_shows(api: Api, png: Any) -> None:
    thumbnail = upload_asset(api, "thumbnail", png(90, 90))
    definition = coupon_definition(images={"thumbnail": thumbnail})
    assert issues_of(api.post("/v1/templates", store_body(definition))) == [
        ("/images/thumbnail", "not_allowed")]


def test_a_coupon_is_redeemed_once_by_default(api: Api) -> None:
    item = issue(api, make(api, coupon_definition()))
    assert api.post(f"/v1/passes/{item['id']}/redemptions").status_code == 201
    assert_error(api.post(f"/v1/passes/{item['id']}/redemptions"), 409, "conflict_error",
                 "already_redeemed")


# ---- the opening balance -------------------------------------------------------------------

def test_a_loyalty_pass_opens_with_its_balance_lifetime_points_and_tier(
        api: Api, logo: str) -> None:
    template = make(api, loyalty_definition(logo))
    silver = issue(api, template, balance=100)
    assert (silver["balance"], silver["lifetimePoints"], silver["tier"]) == (100, 100, "Silver")
    gold = issue(api, template, balance=1000)
    assert (gold["balance"], gold["lifetimePoints"], gold["tier"]) == (1000, 1000, "Gold")
    empty = issue(api, template)
    assert (empty["balance"], empty["lifetimePoints"], empty["tier"]) == (0, 0, "Silver")
    listed = {p["id"]: p for p in api.get("/v1/passes").get_json()["data"]}
    assert listed[gold["id"]]["tier"] == "Gold" and listed[gold["id"]]["balance"] == 1000
    [opening] = movements(api, silver["id"])["data"]
    assert (opening["amount"], opening["balanceAfter"], opening["reason"]) == (
        100, 100, "opening balance")
    assert movements(api, empty["id"])["data"] == []


def test_a_gift_card_opens_with_minor_units_and_no_tier(api: Api) -> None:
    item = issue(api, make(api, gift_card_definition()), balance=2500)
    assert (item["balance"], item["lifetimePoints"], item["tier"]) == (2500, None, None)


def test_other_types_show_no_balance_and_refuse_one(api: Api) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}}).get_json()
    assert (item["balance"], item["lifetimePoints"], item["tier"]) == (None, None, None)
    refused = api.post("/v1/passes", {"templateId": template["id"],
                                      "fieldValues": {"member": "Ada"}, "balance": 5})
    error = assert_error(refused, 400, "invalid_request_error", "balance_not_accepted",
                         "balance")
    assert error["message"] == ("balance is only taken by loyalty and gift_card templates; "
                                "this template is of type generic.")
    coupon = make(api, coupon_definition())
    assert_error(api.post("/v1/passes", {"templateId": coupon["id"], "balance": 0}), 400,
                 "invalid_request_error", "balance_not_accepted", "balance")


@pytest.mark.parametrize("balance", [-1, 10**12 + 1, 1.5, "10", True, None])
def test_a_bad_opening_balance_is_400(api: Api, logo: str, balance: Any) -> None:
    template = make(api, loyalty_definition(logo))
    response = api.post("/v1/passes", {"templateId": template["id"], "balance": balance})
    assert_error(response, 400, "invalid_request_error", param="balance")


# ---- moving the balance --------------------------------------------------------------------

def test_an_earn_answers_the_transaction_and_the_pass(api: Api, card: dict[str, Any]) -> None:
    response = move(api, card["id"], {"amount": 50, "reason": "purchase",
                                      "reference": "order-1234"})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert BTX_ID.match(body["id"]) and TIMESTAMP.match(body["createdAt"])
    assert {k: v for k, v in body.items() if k not in ("id", "createdAt", "pass")} == {
        "object": "balance_transaction", "passId": card["id"], "amount": 50,
        "balanceAfter": 150, "reason": "purchase", "reference": "order-1234", "source": "api"}
    assert (body["pass"]["balance"], body["pass"]["lifetimePoints"]) == (150, 150)
    assert api.get(f"/v1/passes/{card['id']}").get_json()["balance"] == 150


def test_a_spend_lowers_the_balance_but_never_the_lifetime_points(
        api: Api, card: dict[str, Any]) -> None:
    body = move(api, card["id"], {"amount": -100}).get_json()
    assert (body["balanceAfter"], body["reason"], body["reference"]) == (0, None, None)
    item = api.get(f"/v1/passes/{card['id']}").get_json()
    assert (item["balance"], item["lifetimePoints"]) == (0, 100)


def test_an_overspend_is_409_with_the_balance_and_changes_nothing(
        api: Api, card: dict[str, Any]) -> None:
    before = api.get(f"/v1/passes/{card['id']}").get_json()
    error = assert_error(move(api, card["id"], {"amount": -101}), 409, "conflict_error",
                         "insufficient_balance")
    assert (error["balance"], error["passId"]) == (100, card["id"])
    assert error["message"] == "The pass's balance is 100: it cannot spend 101."
    after = api.get(f"/v1/passes/{card['id']}").get_json()
    assert after["balance"] == 100 and after["updatedAt"] == before["updatedAt"]
    assert len(movements(api, card["id"])["data"]) == 1  # the opening balance only


def test_a_gift_card_cannot_go_below_zero(api: Api) -> None:
    item = issue(api, make(api, gift_card_definition()), balance=500)
    assert move(api, item["id"], {"amount": -500, "reason": "coffee"}).status_code == 201
    error = assert_error(move(api, item["id"], {"amount": -1}), 409, "conflict_error",
                         "insufficient_balance")
    assert error["balance"] == 0


def test_tiers_follow_lifetime_points_and_spending_never_demotes(
        api: Api, logo: str) -> None:
    item = issue(api, make(api, loyalty_definition(logo)), balance=990)
    assert move(api, item["id"], {"amount": 10}).get_json()["pass"]["tier"] == "Gold"
    after = move(api, item["id"], {"amount": -900}).get_json()["pass"]
    assert (after["balance"], after["lifetimePoints"], after["tier"]) == (100, 1000, "Gold")


def test_a_movement_pushes_a_wallet_update_and_records_events(
        api: Api, logo: str) -> None:
    item = issue(api, make(api, loyalty_definition(logo)), balance=990)
    body = move(api, item["id"], {"amount": 20}).get_json()
    [update] = api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"]
    assert update["notificationMode"] == "notify" and update["walletChanged"] is True
    assert update["changes"]["fields"] == [
        {"key": "pass.balance", "label": "Points", "from": "990", "to": "1,010"},
        {"key": "pass.tier", "label": "Tier", "from": "Silver", "to": "Gold"}]
    kinds = [e["type"] for e in api.get("/v1/events").get_json()["data"]
             if e["type"].startswith("pass.")]
    assert kinds == ["pass.tier_changed", "pass.balance_changed", "pass.updated",
                     "pass.created"]
    changed = api.get("/v1/events?type=pass.balance_changed").get_json()["data"][0]["data"]
    assert changed["balanceTransaction"] == {k: v for k, v in body.items() if k != "pass"}
    assert changed["object"]["balance"] == 1010
    tier = api.get("/v1/events?type=pass.tier_changed").get_json()["data"][0]["data"]
    assert tier["tier"] == {"from": "Silver", "to": "Gold"}


def test_a_gift_card_change_reads_as_money_and_can_be_silent(api: Api) -> None:
    item = issue(api, make(api, gift_card_definition()), balance=2500)
    move(api, item["id"], {"amount": -1250, "notificationMode": "silent"})
    [update] = api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"]
    assert update["notificationMode"] == "silent"
    assert update["changes"]["fields"] == [
        {"key": "pass.balance", "label": "Balance", "from": "25.00 EUR", "to": "12.50 EUR"}]


def test_a_voided_pass_refuses_movements(api: Api, card: dict[str, Any]) -> None:
    api.delete(f"/v1/passes/{card['id']}")
    assert_error(move(api, card["id"], {"amount": 5}), 409, "conflict_error", "pass_voided")


def test_a_pass_without_a_balance_refuses_movements(api: Api) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}}).get_json()
    error = assert_error(move(api, item["id"], {"amount": 5}), 400, "invalid_request_error",
                         "balance_not_supported")
    assert "type generic" in error["message"]


@pytest.mark.parametrize(("body", "param"), [
    ({"amount": 0}, "amount"), ({"amount": 1.5}, "amount"), ({"amount": "5"}, "amount"),
    ({"amount": True}, "amount"), ({}, "amount"), ({"amount": 10**12 + 1}, "amount"),
    ({"amount": 5, "reason": "x" * 101}, "reason"), ({"amount": 5, "reason": "a\nb"}, "reason"),
    ({"amount": 5, "reference": "x" * 201}, "reference"),
    ({"amount": 5, "notificationMode": "loud"}, "notificationMode"),
    ({"amount": 5, "colour": "red"}, "colour"),
])
def test_bad_movements_are_400(api: Api, card: dict[str, Any], body: Any, param: str) -> None:
    assert_error(move(api, card["id"], body), 400, "invalid_request_error", param=param)
    assert len(movements(api, card["id"])["data"]) == 1


def test_a_balance_over_the_maximum_is_refused(api: Api, logo: str) -> None:
    item = issue(api, make(api, loyalty_definition(logo)), balance=10**12)
    assert_error(move(api, item["id"], {"amount": 1}), 400, "invalid_request_error",
                 "balance_too_large", "amount")


def test_a_retry_replays_the_movement_and_moves_nothing(api: Api, card: dict[str, Any]
                                                        ) -> None:
    first = move(api, card["id"], {"amount": 5}, idem="earn-1")
    again = move(api, card["id"], {"amount": 5}, idem="earn-1")
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert api.get(f"/v1/passes/{card['id']}").get_json()["balance"] == 105
    no_key = api.client.post(f"/v1/passes/{card['id']}/balance-transactions",
                             json={"amount": 5}, headers={"Authorization": f"Bearer {api.key}"})
    assert_error(no_key, 400, "invalid_request_error")


def test_movements_are_listed_newest_first_with_cursors(api: Api, card: dict[str, Any]) -> None:
    made = [move(api, card["id"], {"amount": n}).get_json()["id"] for n in (1, 2, 3)]
    first = movements(api, card["id"], "?limit=2")
    assert [m["id"] for m in first["data"]] == made[::-1][:2]
    assert first["hasMore"] is True and first["nextCursor"] == made[1]
    rest = movements(api, card["id"], f"?limit=2&cursor={first['nextCursor']}")
    assert [m["amount"] for m in rest["data"]] == [1, 100] and rest["hasMore"] is False
    assert sum(m["amount"] for m in first["data"] + rest["data"]) == 106


@pytest.mark.parametrize("pass_id", ["pass_nope", "nope", "pass_01jf3v9a1b3d5f7h9k1m3p5r7s"])
def test_unknown_pass_ids_are_404(api: Api, pass_id: str) -> None:
    assert_error(move(api, pass_id, {"amount": 1}), 404, "not_found_error", "resource_missing")
    assert_error(api.get(f"/v1/passes/{pass_id}/balance-transactions"), 404,
                 "not_found_error", "resource_missing")


def test_another_organization_s_or_environment_s_pass_is_404(
        api: Api, other_api: Api, live_api: Api, card: dict[str, Any]) -> None:
    for stranger in (other_api, live_api):
        assert_error(move(stranger, card["id"], {"amount": 1}), 404, "not_found_error")
        assert_error(stranger.get(f"/v1/passes/{card['id']}/balance-transactions"), 404,
                     "not_found_error")
    assert api.get(f"/v1/passes/{card['id']}").get_json()["balance"] == 100


def test_a_store_card_takes_its_own_strip_not_a_thumbnail(api: Api, card: dict[str, Any],
                                                          png: Any) -> None:
    strip = upload_asset(api, "strip", png(375, 123))
    thumbnail = upload_asset(api, "thumbnail", png(90, 90))
    put = api.request("PUT", f"/v1/passes/{card['id']}/images/strip", {"assetId": strip})
    assert put.status_code == 200, put.get_json()
    refused = api.request("PUT", f"/v1/passes/{card['id']}/images/thumbnail",
                          {"assetId": thumbnail})
    assert_error(refused, 400, "invalid_request_error", param="slot")


def test_the_dashboard_names_the_types(api: Api, logo: str, client: Any, org: dict) -> None:
    from tests.dashboard.conftest import sign_in, text

    make(api, gift_card_definition())
    dash = sign_in(client, org["email"], org["password"])
    assert ">Gift card</td>" in text(dash.get("/dashboard/test/templates"))


def test_insights_count_balance_changes(api: Api, card: dict[str, Any], client: Any,
                                        org: dict) -> None:
    from tests.dashboard.conftest import sign_in, text

    move(api, card["id"], {"amount": 5})
    move(api, card["id"], {"amount": -5})
    assert_error(move(api, card["id"], {"amount": -1000}), 409, "conflict_error")
    totals = api.get("/v1/insights").get_json()["totals"]
    assert totals["balanceChanges"] == 2  # the opening balance and the refusal are not
    assert totals["byPlatform"]["apple"]["balanceChanges"] == 2
    dash = sign_in(client, org["email"], org["password"])
    overview = text(dash.get("/dashboard/test/"))
    assert 'id="balance-changes">2 ' in overview
