"""The designer knows loyalty cards, gift cards and coupons (issue 32): new templates of
each type validate at once (a loyalty card gets a plain logo to start with), their own
members are on the form, and saving keeps what the form cannot show (tiers)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_fields, text


def create(dash: Dash, template_type: str) -> str:
    response = dash.post("/dashboard/test/templates/new", {"name": "Bean", "type":
                                                           template_type})
    assert response.status_code == 303, text(response)
    return str(response.headers["Location"].rsplit("/", 1)[1])


def save(dash: Dash, template_id: str, **changes: str) -> Any:
    url = f"/dashboard/test/templates/{template_id}"
    form = form_fields(text(dash.get(url)), "design-form")
    for name, value in changes.items():
        form[name] = value
    return dash.post(url, form, htmx=True, header=True)


@pytest.mark.parametrize(("template_type", "member", "label"), [
    ("loyalty", "loyalty", "Loyalty programme"), ("gift_card", "giftCard", "Gift card"),
    ("coupon", "offer", "Offer")])
def test_a_new_template_of_each_type_validates(dash: Dash, api: Api, template_type: str,
                                               member: str, label: str) -> None:
    template_id = create(dash, template_type)
    got = api.get(f"/v1/templates/{template_id}").get_json()
    assert got["type"] == template_type and member in got["definition"]
    page = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert f"<h2>{label}</h2>" in page
    assert 'name="img-thumbnail"' not in page  # no wallet shows one on these types
    saved = save(dash, template_id)
    assert saved.status_code == 200, text(saved)
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 1


def test_a_loyalty_card_starts_with_a_logo_and_keeps_its_tiers(dash: Dash, api: Api) -> None:
    template_id = create(dash, "loyalty")
    got = api.get(f"/v1/templates/{template_id}").get_json()
    assert got["definition"]["images"]["logo"].startswith("asset_")
    definition = got["definition"]
    definition["loyalty"]["tiers"] = [{"name": "Silver", "minLifetimePoints": 0},
                                      {"name": "Gold", "minLifetimePoints": 500,
                                       "backgroundColor": "#111111"}]
    assert api.patch(f"/v1/templates/{template_id}", {
        "expectedRevision": 1, "definition": definition}).status_code == 200
    assert save(dash, template_id, **{"loyalty-programName": "Bean Club",
                                      "loyalty-pointsLabel": "Beans"}).status_code == 200
    loyalty = api.get(f"/v1/templates/{template_id}").get_json()["definition"]["loyalty"]
    assert loyalty == {"programName": "Bean Club", "pointsLabel": "Beans",
                       "tiers": definition["loyalty"]["tiers"]}


def test_a_bad_currency_is_named_on_its_field(dash: Dash, api: Api) -> None:
    template_id = create(dash, "gift_card")
    response = save(dash, template_id, **{"giftCard-currency": "EURO"})
    assert response.status_code == 422, text(response)
    assert 'id="err-giftCard-currency"' in text(response)
    assert save(dash, template_id, **{"giftCard-currency": "gbp"}).status_code == 200
    got = api.get(f"/v1/templates/{template_id}").get_json()["definition"]
    assert got["giftCard"] == {"currency": "GBP"}


def test_a_coupon_is_redeemed_once_unless_the_form_says_otherwise(dash: Dash, api: Api
                                                                  ) -> None:
    template_id = create(dash, "coupon")
    page = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert 'name="redemption-mode" value="single" checked' in page
    assert save(dash, template_id, **{"offer-title": "Free cake",
                                      "offer-details": "One slice."}).status_code == 200
    got = api.get(f"/v1/templates/{template_id}").get_json()["definition"]
    assert got["offer"] == {"title": "Free cake", "provider": got["offer"]["provider"],
                            "details": "One slice."}
    assert "redemption" not in got
    assert save(dash, template_id, **{"redemption-mode": "none"}).status_code == 200
    got = api.get(f"/v1/templates/{template_id}").get_json()["definition"]
    assert got["redemption"] == {"mode": "none"}
