"""Changing or voiding many of a template's passes from the dashboard: the count of the
passes a search finds, a bulk `update` or `void` job of their IDs, its results; the bounds
and the bad inputs."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.api.factories import member_import_definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, text
from tests.dashboard.test_bulk_import import _results, _wait_for_job


@pytest.fixture
def template_id(api: Api) -> str:
    """The Gym template of the import tests: a required member, a level, points."""
    response = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                          "definition": member_import_definition()})
    assert response.status_code == 201, response.get_json()
    return str(response.get_json()["id"])


@pytest.fixture
def passes(api: Api, template_id: str) -> list[str]:
    made = [api.post("/v1/passes", {"templateId": template_id, "holderName": name,
                                    "fieldValues": {"member": name, "level": "Silver"}}
                     ).get_json()["id"] for name in ("Ada Müller", "Bo", "Cy")]
    assert api.delete(f"/v1/passes/{made[2]}").status_code == 200  # voided: never matched
    return made


def url(template_id: str) -> str:
    return f"/dashboard/test/templates/{template_id}/change"


def test_the_template_page_links_to_it(dash: Dash, template_id: str) -> None:
    page = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert f'id="change-passes-link" href="{url(template_id)}"' in page


def test_the_page_counts_the_active_passes_a_search_finds(
        dash: Dash, template_id: str, passes: list[str]) -> None:
    page = text(dash.get(url(template_id)))
    assert "<strong>2 active passes</strong> of Gym in test." in page
    assert 'id="c-fv-member"' in page and 'id="c-fv-points"' in page
    found = text(dash.get(url(template_id), query_string={"q": "muller"}))
    assert "<strong>1 active pass</strong> of Gym in test contains “muller”." in found
    assert 'name="q" value="muller"' in found
    none = text(dash.get(url(template_id), query_string={"q": "<zed>"}))
    assert "No active pass of Gym in test contains “&lt;zed&gt;”." in none
    assert 'id="run-change"' not in none


def test_set_values_runs_an_update_job(dash: Dash, api: Api, template_id: str,
                                       passes: list[str]) -> None:
    run = dash.post(url(template_id), {"action": "update", "fv-level": "Gold",
                                       "fv-points": "12", "fv-member": "",
                                       "notification_mode": "notify"})
    assert run.status_code == 303, text(run)
    job_url = run.headers["Location"]
    assert job_url.startswith("/dashboard/test/jobs/bjob_")
    done = _wait_for_job(dash, job_url)
    assert '<strong id="job-done">2 of 2</strong>' in done and "2 succeeded" in done
    for pass_id, member in zip(passes[:2], ("Ada Müller", "Bo"), strict=True):
        body = api.get(f"/v1/passes/{pass_id}").get_json()
        assert body["fieldValues"] == {"member": member, "level": "Gold", "points": 12}
    assert api.get(f"/v1/passes/{passes[2]}").get_json()["fieldValues"]["level"] == "Silver"
    job = api.get(f"/v1/bulk-jobs/{job_url.rsplit('/', 1)[1]}").get_json()
    assert job["operation"] == "update" and job["notificationMode"] == "notify"
    assert [row[2] for row in _results(dash, job_url)[1:]] == ["Changed", "Changed"]


def test_void_runs_a_void_job_on_what_the_search_finds(dash: Dash, api: Api, template_id: str,
                                                       passes: list[str]) -> None:
    run = dash.post(url(template_id), {"action": "void", "q": "bo"})
    assert run.status_code == 303, text(run)
    _wait_for_job(dash, run.headers["Location"])
    statuses = [api.get(f"/v1/passes/{i}").get_json()["status"] for i in passes]
    assert statuses == ["active", "voided", "voided"]


def test_voiding_several_shows_who_and_needs_their_count_typed(
        dash: Dash, api: Api, template_id: str, passes: list[str]) -> None:
    page = text(dash.get(url(template_id)))
    assert '<button class="btn danger" type="submit" id="run-void">Void 2 passes</button>' \
        in page
    assert '<button class="btn primary" type="submit" id="run-change">Change 2 passes' in page
    assert "Type 2 to confirm voiding 2 passes" in page
    shown = re.findall(r'<li><a href="/dashboard/test/passes/(pass_\w+)">([^<]+)</a>', page)
    assert shown == [(passes[1], "Bo"), (passes[0], "Ada Müller")] or \
        shown == [(passes[0], "Ada Müller"), (passes[1], "Bo")]
    for typed in ("", "3", "two", "1"):
        refused = dash.post(url(template_id), {"action": "void", "confirm_count": typed})
        assert refused.status_code == 422
        assert ("Not voided: type 2 (the number of passes that match now) to confirm voiding "
                "2 passes.") in text(refused)
    assert api.get("/v1/bulk-jobs").get_json()["data"] == []
    run = dash.post(url(template_id), {"action": "void", "confirm_count": " 2 "})
    assert run.status_code == 303, text(run)
    _wait_for_job(dash, run.headers["Location"])
    statuses = [api.get(f"/v1/passes/{i}").get_json()["status"] for i in passes]
    assert statuses == ["voided", "voided", "voided"]


def test_a_count_typed_for_what_matched_before_voids_nothing(
        dash: Dash, api: Api, template_id: str, passes: list[str]) -> None:
    """A pass issued after the page was drawn: the typed 2 no longer matches 3."""
    api.post("/v1/passes", {"templateId": template_id, "holderName": "Di",
                            "fieldValues": {"member": "Di"}})
    refused = dash.post(url(template_id), {"action": "void", "confirm_count": "2"})
    assert refused.status_code == 422 and "type 3" in text(refused)
    assert "Type 3 to confirm voiding 3 passes" in text(refused)


@pytest.mark.parametrize(("form", "problem"), [
    ({"action": "update"}, "Type at least one new value (empty inputs leave a value as it is)."),
    ({"action": "update", "fv-level": "   "},
     "Type at least one new value (empty inputs leave a value as it is)."),
    ({"action": "delete", "fv-level": "Gold"}, "Choose what to do: set values or void."),
    ({"fv-level": "Gold"}, "Choose what to do: set values or void."),
    ({"action": "void", "q": "nobody"}, "No active pass matches: nothing to change."),
])
def test_bad_forms_start_nothing(dash: Dash, api: Api, template_id: str, passes: list[str],
                                 form: dict[str, Any], problem: str) -> None:
    response = dash.post(url(template_id), form)
    assert response.status_code == 422
    assert f'<div class="flash bad" role="alert" id="change-problem">{problem}</div>' \
        in text(response)
    assert api.get("/v1/bulk-jobs").get_json()["data"] == []


def test_a_bad_value_fails_each_pass_alone_with_the_reason(
        dash: Dash, template_id: str, passes: list[str]) -> None:
    run = dash.post(url(template_id), {"action": "update", "fv-points": "many"})
    assert run.status_code == 303
    done = _wait_for_job(dash, run.headers["Location"])
    assert "2 failed" in done
    rows = _results(dash, run.headers["Location"])[1:]
    assert {row[9] for row in rows} == {"field_value_invalid"}
    assert {row[2] for row in rows} == {"Problem"}


def test_more_than_a_job_takes_is_refused(dash: Dash, api: Api, template_id: str,
                                          passes: list[str], monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    from webapp.services import bulk

    monkeypatch.setattr(bulk, "MAX_ITEMS", 1)
    page = text(dash.get(url(template_id)))
    assert "<strong>More than 1 active passes</strong>" in page and 'id="run-change"' not in page
    response = dash.post(url(template_id), {"action": "void"})
    assert response.status_code == 422
    assert "More than 1 passes match: narrow them down with a search" in text(response)
    assert api.get("/v1/bulk-jobs").get_json()["data"] == []


def test_other_organizations_and_environments_see_nothing(
        dash: Dash, other_dash: Dash, template_id: str, passes: list[str]) -> None:
    assert other_dash.get(url(template_id)).status_code == 404
    assert other_dash.post(url(template_id), {"action": "void"}).status_code == 404
    live = url(template_id).replace("/test/", "/live/")  # templates are the organization's
    assert "No active pass of Gym in live." in text(dash.get(live))
    assert dash.post(live, {"action": "void"}).status_code == 422


def test_the_form_needs_the_csrf_token(dash: Dash, template_id: str, passes: list[str]
                                       ) -> None:
    assert dash.post(url(template_id), {"action": "void"}, csrf=False).status_code == 400
