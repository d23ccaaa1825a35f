"""A CSV import of loyalty or gift cards (issue 32) takes each row's opening balance: a
"Points" (or "Balance") column, money written as 12.50; a cell that is no amount is the
row's problem in the preview."""

from __future__ import annotations

from typing import Any

from tests.api.factories import gift_card_definition, loyalty_definition, store_body
from tests.conftest import Api, upload_asset
from tests.dashboard.conftest import Dash, form_data, text
from tests.dashboard.test_bulk_import import _mapping_url, _results, _wait_for_job
from webapp.dashboard import csv_import


def _template(api: Api, definition: dict[str, Any]) -> str:
    return str(api.post("/v1/templates", store_body(definition)).get_json()["id"])


def test_a_loyalty_import_opens_each_card_with_its_points(dash: Dash, api: Api,
                                                           png: Any) -> None:
    template_id = _template(api, loyalty_definition(upload_asset(api, "logo", png(160, 50))))
    url = _mapping_url(dash, template_id, b"Name,Points\nAda,120\nBo,1200\nCy,lots\n")
    page = text(dash.get(url))
    assert "Balance is not an amount (like 100, or 12.50 for money)." in page
    run = dash.post(f"{url}/run", form_data(page, "import-form"))
    assert run.status_code == 303, text(run)
    _wait_for_job(dash, run.headers["Location"])
    rows = _results(dash, run.headers["Location"])[1:]
    passes = [api.get(f"/v1/passes/{row[4]}").get_json() for row in rows[:2]]
    assert [(p["holderName"], p["balance"], p["tier"]) for p in passes] == [
        ("Ada", 120, "Silver"), ("Bo", 1200, "Gold")]
    assert rows[2][2] == "Problem"


def test_a_gift_card_balance_is_read_in_its_currency() -> None:
    wanted = csv_import.targets(gift_card_definition())
    [target] = [t for t in wanted if t.name == "balance"]
    assert (target.label, target.digits) == ("Balance", 2)
    mapping = {"holderName": 0, "balance": 1}
    assert csv_import.item(["Ada", "12.50"], mapping, wanted)["balance"] == 1250
    assert csv_import.item(["Ada", "0"], mapping, wanted)["balance"] == 0
    assert csv_import.item(["Ada", "12.505"], mapping, wanted)["balance"] == "12.505"
