"""Bulk jobs' `adjust_balance` (issue 32): a nightly import of points from a till, each item a
balance transaction (source `bulk`) for a pass named by passId or by externalId."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.api.factories import gift_card_definition, loyalty_definition, store_body
from tests.api.test_bulk_jobs import create, results
from tests.conftest import Api, upload_asset


@pytest.fixture(autouse=True)
def _inline_jobs(app: Flask) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True)


@pytest.fixture
def loyalty(api: Api, png: Any) -> dict[str, Any]:
    definition = loyalty_definition(upload_asset(api, "logo", png(160, 50)))
    return dict(api.post("/v1/templates", store_body(definition)).get_json())


def issue(api: Api, template: dict[str, Any], *external_ids: str) -> list[dict[str, Any]]:
    job = create(api, {"operation": "issue", "templateId": template["id"],
                       "items": [{"externalId": e, "balance": 100} for e in external_ids]})
    return [api.get(f"/v1/passes/{r['passId']}").get_json() for r in results(api, job)]


def test_adjust_balance_moves_each_pass_by_pass_id_or_external_id(
        api: Api, loyalty: dict[str, Any]) -> None:
    ada, bo = issue(api, loyalty, "M-1", "M-2")
    job = create(api, {"operation": "adjust_balance", "templateId": loyalty["id"], "items": [
        {"passId": ada["id"], "amount": 50, "reason": "till", "reference": "z-1"},
        {"externalId": "M-2", "amount": -30},
        {"externalId": "M-3", "amount": 5},  # no such pass
        {"passId": bo["id"], "amount": -500},  # more than it has
        {"passId": bo["id"], "externalId": "M-2", "amount": 1},  # which one?
        {"passId": ada["id"], "amount": 0},
    ]})
    job = api.get(f"/v1/bulk-jobs/{job['id']}").get_json()
    assert job["status"] == "completed" and job["notificationMode"] == "silent"
    assert job["counts"]["succeeded"] == 2 and job["counts"]["failed"] == 4
    rows = results(api, job)
    assert [r["status"] for r in rows] == ["succeeded"] * 2 + ["failed"] * 4
    assert [r["passId"] for r in rows[:2]] == [ada["id"], bo["id"]]
    assert [(r["error"]["type"], r["error"]["code"]) for r in rows[2:]] == [
        ("not_found_error", "resource_missing"), ("conflict_error", "insufficient_balance"),
        ("invalid_request_error", "parameter_missing"),
        ("invalid_request_error", "parameter_invalid")]
    assert api.get(f"/v1/passes/{ada['id']}").get_json()["balance"] == 150
    assert api.get(f"/v1/passes/{bo['id']}").get_json()["balance"] == 70
    [earn, _opening] = api.get(f"/v1/passes/{ada['id']}/balance-transactions").get_json()[
        "data"]
    assert (earn["source"], earn["reason"], earn["reference"]) == ("bulk", "till", "z-1")
    [update] = api.get(f"/v1/passes/{ada['id']}/updates").get_json()["data"]
    assert update["notificationMode"] == "silent"


def test_external_ids_need_the_job_s_template(api: Api, loyalty: dict[str, Any]) -> None:
    [ada] = issue(api, loyalty, "M-1")
    job = create(api, {"operation": "adjust_balance", "notificationMode": "notify",
                       "items": [{"externalId": "M-1", "amount": 5},
                                 {"passId": ada["id"], "amount": 5}]})
    rows = results(api, job)
    assert rows[0]["error"]["param"] == "templateId" and rows[1]["status"] == "succeeded"
    [update] = api.get(f"/v1/passes/{ada['id']}/updates").get_json()["data"]
    assert update["notificationMode"] == "notify"


def test_a_gift_card_pass_of_another_template_moves_by_pass_id(api: Api) -> None:
    template = api.post("/v1/templates", store_body(gift_card_definition())).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"], "balance": 1000}).get_json()
    job = create(api, {"operation": "adjust_balance",
                       "items": [{"passId": item["id"], "amount": -250}]})
    assert results(api, job)[0]["status"] == "succeeded"
    assert api.get(f"/v1/passes/{item['id']}").get_json()["balance"] == 750


@pytest.mark.parametrize(("body", "param"), [
    ({"operation": "adjust_balance"}, "items"),
    ({"operation": "adjust_balance", "items": [], "toRevision": 1}, "toRevision"),
    ({"operation": "adjust_balance", "templateId": "tmpl_nope", "items": [{"amount": 1}]},
     "templateId"),
])
def test_a_bad_adjust_job_is_refused_up_front(api: Api, body: dict[str, Any], param: str
                                              ) -> None:
    response = api.post("/v1/bulk-jobs", body)
    assert response.status_code in (400, 404), response.get_json()
    assert response.get_json()["error"]["param"] == param
