"""The pass page's balance card (issue 32): the balance, lifetime points, tier and history,
and the form that adds or spends points, loads or charges a gift card in its currency."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import gift_card_definition, loyalty_definition, store_body
from tests.conftest import Api, upload_asset
from tests.dashboard.conftest import Dash, text
from webapp.dashboard.forms import amount
from webapp.errors import InvalidRequest


def issue(api: Api, definition: dict[str, Any], balance: int) -> dict[str, Any]:
    template = api.post("/v1/templates", store_body(definition)).get_json()
    return dict(api.post("/v1/passes", {"templateId": template["id"], "holderName": "Ada",
                                        "balance": balance}).get_json())


@pytest.fixture
def card(api: Api, png: Any) -> dict[str, Any]:
    return issue(api, loyalty_definition(upload_asset(api, "logo", png(160, 50))), 990)


def move(dash: Dash, item: dict[str, Any], **form: str) -> Any:
    return dash.post(f"/dashboard/test/passes/{item['id']}/balance", form, htmx=True,
                     header=True)


def test_the_page_shows_points_tier_and_history(dash: Dash, card: dict[str, Any]) -> None:
    page = text(dash.get(f"/dashboard/test/passes/{card['id']}"))
    assert 'data-testid="balance">990<' in page and 'data-testid="tier">Silver<' in page
    assert "Add points" in page and "Spend" in page and "opening balance" in page


def test_add_points_then_spend_from_the_page(dash: Dash, api: Api, card: dict[str, Any]
                                             ) -> None:
    response = move(dash, card, amount="20", reason="coffee", direction="earn")
    assert response.status_code == 200, text(response)
    assert response.headers["HX-Redirect"] == f"/dashboard/test/passes/{card['id']}"
    page = text(dash.get(f"/dashboard/test/passes/{card['id']}"))
    assert "Balance moved: now 1,010." in page and 'data-testid="tier">Gold<' in page
    assert move(dash, card, amount="500", direction="spend").status_code == 200
    item = api.get(f"/v1/passes/{card['id']}").get_json()
    assert (item["balance"], item["lifetimePoints"], item["tier"]) == (510, 1010, "Gold")
    [spend, earn, _] = api.get(f"/v1/passes/{card['id']}/balance-transactions").get_json()[
        "data"]
    assert (spend["amount"], spend["source"]) == (-500, "dashboard")
    assert (earn["amount"], earn["reason"]) == (20, "coffee")
    [*_, update] = api.get(f"/v1/passes/{card['id']}/updates").get_json()["data"]
    assert update["notificationMode"] == "notify"


def test_an_overspend_is_409_in_the_card(dash: Dash, api: Api, card: dict[str, Any]) -> None:
    response = move(dash, card, amount="991", direction="spend")
    assert response.status_code == 409
    body = text(response)
    assert 'id="balance"' in body and "The pass&#39;s balance is 990: it cannot spend 991." in body
    assert api.get(f"/v1/passes/{card['id']}").get_json()["balance"] == 990


@pytest.mark.parametrize("value", ["", "abc", "-5", "0", "1.5", "10000000000000"])
def test_a_bad_amount_is_422(dash: Dash, card: dict[str, Any], value: str) -> None:
    response = move(dash, card, amount=value, direction="earn")
    assert response.status_code == 422, text(response)
    assert 'aria-invalid="true"' in text(response)


def test_a_gift_card_is_charged_in_its_currency(dash: Dash, api: Api) -> None:
    item = issue(api, gift_card_definition(), 2500)
    page = text(dash.get(f"/dashboard/test/passes/{item['id']}"))
    assert "25.00 EUR" in page and "Amount (EUR)" in page and "Charge" in page
    assert move(dash, item, amount="12,50", direction="spend").status_code == 200
    assert api.get(f"/v1/passes/{item['id']}").get_json()["balance"] == 1250
    assert move(dash, item, amount="0.005", direction="spend").status_code == 422


def test_amounts_in_the_staff_s_units() -> None:
    assert amount("50", 0, "earn") == 50
    assert amount(" 12.50 ", 2, "spend") == -1250
    assert amount("1,5", 3, "earn") == 1500
    for bad, digits in (("1.5", 0), ("1.234", 2), ("0", 2), ("1e3", 0)):
        with pytest.raises(InvalidRequest):
            amount(bad, digits, "earn")


def test_a_pass_without_a_balance_has_no_card(dash: Dash, api: Api) -> None:
    from tests.api.factories import template_body

    template = api.post("/v1/templates", template_body()).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}}).get_json()
    assert 'id="balance"' not in text(dash.get(f"/dashboard/test/passes/{item['id']}"))
    assert move(dash, item, amount="5").status_code == 422


def test_the_previews_show_the_balance_and_tier(dash: Dash, api: Api, card: dict[str, Any],
                                                client: Any) -> None:
    from webapp.services.templates import previews

    card_page = text(dash.get(f"/dashboard/test/passes/{card['id']}"))
    assert card_page.count(">990<") >= 2  # the balance card and the preview
    holder = client.get(f"/p/{card['shortId']}").get_data(as_text=True)
    assert ">990<" in holder and ">Silver<" in holder
    sample = previews.for_definition(gift_card_definition())
    assert sample["fields"]["primary"][0]["display"] == "25.00 EUR"


def test_the_issue_form_takes_an_opening_balance(dash: Dash, api: Api) -> None:
    template = api.post("/v1/templates", store_body(gift_card_definition())).get_json()
    form = text(dash.get(f"/dashboard/test/passes/new?template={template['id']}"))
    assert "Opening balance (EUR)" in form
    bad = dash.post("/dashboard/test/passes", {"template_id": template["id"],
                                               "holder_name": "Ada", "balance": "ten"})
    assert bad.status_code == 422 and "Enter an amount with at most 2 decimals" in text(bad)
    made = dash.post("/dashboard/test/passes", {"template_id": template["id"],
                                                "holder_name": "Ada", "balance": "12.50",
                                                "platform-apple": "on"})
    assert made.status_code == 303, text(made)
    pass_id = made.headers["Location"].rsplit("/", 1)[1]
    assert api.get(f"/v1/passes/{pass_id}").get_json()["balance"] == 1250
