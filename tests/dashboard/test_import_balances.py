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


def test_a_till_export_moves_the_balances_of_the_passes_it_names(dash: Dash, api: Api,
                                                                  png: Any) -> None:
    template_id = _template(api, loyalty_definition(upload_asset(api, "logo", png(160, 50))))
    job = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template_id,
                                     "items": [{"externalId": "M-1", "balance": 100},
                                               {"externalId": "M-2", "balance": 50}]})
    assert job.status_code == 202
    url = _mapping_url(dash, template_id,
                       b"External ID,Points,Reason\nM-1,120,till\nM-2,-80,till\nM-9,5,till\n"
                       b"M-1,abc,till\n")
    page = text(dash.post(f"{url}/preview", {"mode": "adjust", "mode-changed": "1"},
                          htmx=True, header=True))
    assert "Move 4 balances" in page
    assert "No pass of this template has this External ID." in page
    assert "Points is not an amount" in page
    form = form_data(page, "import-form")
    assert form["mode"] == "adjust" and form["map-amount"] == "1"
    run = dash.post(f"{url}/run", form)
    assert run.status_code == 303, text(run)
    _wait_for_job(dash, run.headers["Location"])
    rows = _results(dash, run.headers["Location"])[1:]
    assert [row[2] for row in rows] == ["Balance moved", "Problem", "Problem", "Problem"]
    listed = {p["externalId"] if "externalId" in p else p["id"]: p for p in
              api.get(f"/v1/passes?templateId={template_id}").get_json()["data"]}
    balances = sorted(p["balance"] for p in listed.values())
    assert balances == [50, 220]  # M-2 cannot spend 80 of 50: refused, nothing moved
    assert "insufficient" in rows[1][3].lower() or "cannot spend" in rows[1][3]
