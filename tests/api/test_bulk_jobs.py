"""/v1/bulk-jobs: issue, update, void and upgrade many passes; results, cancel, the webhook.

Jobs run inline after the POST commits (JOBS_SYNCHRONOUS) unless a test holds them back.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.factories import definition, template_body
from tests.api.test_permissions import restricted
from tests.conftest import Api, assert_error

JOB_KEYS = {"object", "id", "operation", "status", "templateId", "toRevision",
            "notificationMode", "environment", "counts", "createdAt", "startedAt",
            "finishedAt"}
RESULT_KEYS = {"index", "externalId", "status", "passId", "existing", "error"}


@pytest.fixture(autouse=True)
def _inline_jobs(app: Flask) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True)


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    response = api.post("/v1/templates", template_body())
    assert response.status_code == 201
    return response.get_json()


def create(api: Api, body: dict[str, Any], status: int = 202, **kw: Any) -> dict[str, Any]:
    response = api.post("/v1/bulk-jobs", body, **kw)
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def results(api: Api, job: dict[str, Any], query: str = "limit=100") -> list[dict[str, Any]]:
    response = api.get(f"/v1/bulk-jobs/{job['id']}/results?{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["data"]


def member(name: str, **extra: Any) -> dict[str, Any]:
    return {"fieldValues": {"member": name}, **extra}


def issue_job(api: Api, template: dict[str, Any], items: list[dict[str, Any]]
              ) -> dict[str, Any]:
    job = create(api, {"operation": "issue", "templateId": template["id"], "items": items})
    return api.get(f"/v1/bulk-jobs/{job['id']}").get_json()


def pass_count(api: Api, template: dict[str, Any]) -> int:
    body = api.get(f"/v1/passes?templateId={template['id']}&limit=100").get_json()
    return len(body["data"])


# ---- issue -------------------------------------------------------------------------------------

def test_issue_answers_202_and_issues_every_item(api: Api, template: dict[str, Any]) -> None:
    response = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                          "items": [member("Ada"), member("Alan")]})
    assert response.status_code == 202
    job = response.get_json()
    assert set(job) == JOB_KEYS
    assert job["object"] == "bulk_job" and job["id"].startswith("bjob_")
    assert job["operation"] == "issue" and job["status"] == "queued"
    assert job["templateId"] == template["id"] and job["environment"] == "test"
    assert job["counts"] == {"total": 2, "succeeded": 0, "failed": 0, "canceled": 0,
                             "pending": 2}
    done = api.get(f"/v1/bulk-jobs/{job['id']}").get_json()
    assert done["status"] == "completed"
    assert done["counts"] == {"total": 2, "succeeded": 2, "failed": 0, "canceled": 0,
                              "pending": 0}
    assert done["startedAt"] and done["finishedAt"]
    rows = results(api, job)
    assert [set(r) for r in rows] == [RESULT_KEYS] * 2
    assert [(r["index"], r["status"], r["error"], r["existing"]) for r in rows] == [
        (0, "succeeded", None, False), (1, "succeeded", None, False)]
    passes = [api.get(f"/v1/passes/{r['passId']}").get_json() for r in rows]
    assert [p["fieldValues"]["member"] for p in passes] == ["Ada", "Alan"]
    assert {p["source"] for p in passes} == {"api"}
    # The per-pass events of the single endpoint happen too.
    events = api.get("/v1/events?type=pass.created").get_json()["data"]
    assert sorted(e["data"]["object"]["id"] for e in events) == sorted(p["id"] for p in passes)


def test_a_bad_item_fails_alone_with_the_single_endpoints_error(
        api: Api, template: dict[str, Any]) -> None:
    other = api.post("/v1/templates", template_body(name="Other")).get_json()
    job = issue_job(api, template, [
        member("Ada"),
        {"fieldValues": {"level": "Gold"}},  # the required member is missing
        member("Bo", colour="red"),  # not a member of POST /v1/passes
        {"fieldValues": "Ada"},  # a wrong type
        member("Cy", templateId=other["id"]),  # another template than the job's
        member("Di", holderEmail="not-an-email"),
        member("Ed", externalId=""),  # too short
        member("Flo"),
    ])
    assert job["status"] == "completed"
    assert job["counts"] == {"total": 8, "succeeded": 2, "failed": 6, "canceled": 0,
                             "pending": 0}
    rows = results(api, job)
    assert [r["status"] for r in rows] == ["succeeded"] + ["failed"] * 6 + ["succeeded"]
    errors = [r["error"] for r in rows[1:7]]
    assert errors == [
        {"type": "invalid_request_error", "code": "required_field_missing",
         "message": "fieldValues.member is required.", "param": "fieldValues.member"},
        {"type": "invalid_request_error", "code": "parameter_unknown",
         "message": "Received unknown parameter: colour.", "param": "colour"},
        {"type": "invalid_request_error", "code": "parameter_invalid",
         "message": "fieldValues: Not a valid mapping type.", "param": "fieldValues"},
        {"type": "invalid_request_error", "code": "parameter_invalid",
         "message": "An item's templateId must be the job's (or be left out).",
         "param": "templateId"},
        {"type": "invalid_request_error", "code": "parameter_invalid",
         "message": "holderEmail is not an email address.", "param": "holderEmail"},
        {"type": "invalid_request_error", "code": "parameter_invalid",
         "message": "externalId: Length must be between 1 and 200.", "param": "externalId"},
    ]
    assert all(r["passId"] is None for r in rows[1:7])
    # The single endpoint answers the same for the same body.
    single = api.post("/v1/passes", {"templateId": template["id"], "fieldValues": "Ada"})
    assert single.get_json()["error"] == {**errors[2]}
    assert pass_count(api, template) == 2


def test_an_external_id_issues_one_pass_per_template(api: Api, template: dict[str, Any]
                                                      ) -> None:
    job = issue_job(api, template, [member("Ada", externalId="m-1"),
                                    member("Ada again", externalId="m-1"),
                                    member("Alan", externalId="m-2"),
                                    member("No ID")])
    rows = results(api, job)
    assert [(r["externalId"], r["status"], r["existing"]) for r in rows] == [
        ("m-1", "succeeded", False), ("m-1", "succeeded", True), ("m-2", "succeeded", False),
        (None, "succeeded", False)]
    assert rows[1]["passId"] == rows[0]["passId"]
    assert job["counts"]["succeeded"] == 4
    assert pass_count(api, template) == 3
    # A later job with a known externalId reports the pass it has.
    again = issue_job(api, template, [member("Alan", externalId="m-2"),
                                      member("Cy", externalId="m-3")])
    rows2 = results(api, again)
    assert [(r["status"], r["existing"]) for r in rows2] == [("succeeded", True),
                                                             ("succeeded", False)]
    assert rows2[0]["passId"] == rows[2]["passId"]
    assert pass_count(api, template) == 4


def test_an_external_id_is_per_template_and_environment(
        api: Api, live_api: Api, template: dict[str, Any]) -> None:
    other = api.post("/v1/templates", template_body(name="Other")).get_json()
    first = results(api, issue_job(api, template, [member("Ada", externalId="m-1")]))
    second = results(api, issue_job(api, other, [member("Ada", externalId="m-1")]))
    assert not first[0]["existing"] and not second[0]["existing"]
    assert first[0]["passId"] != second[0]["passId"]


def test_a_failed_item_does_not_take_its_external_id(api: Api, template: dict[str, Any]
                                                     ) -> None:
    job = issue_job(api, template, [{"externalId": "m-1", "fieldValues": {}},
                                    member("Ada", externalId="m-1")])
    assert [(r["status"], r["existing"]) for r in results(api, job)] == [
        ("failed", False), ("succeeded", False)]


# ---- the request's shape -----------------------------------------------------------------------

def test_more_than_10000_items_is_refused(api: Api, template: dict[str, Any]) -> None:
    response = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                          "items": [{}] * 10_001})
    error = assert_error(response, 400, "invalid_request_error", "too_many_items", "items")
    assert error["message"] == ("A bulk job takes at most 10,000 items; this one has 10,001. "
                                "Split it into several jobs.")
    assert api.get("/v1/bulk-jobs").get_json()["data"] == []


def test_10000_items_are_taken(api: Api, template: dict[str, Any], app: Flask) -> None:
    app.extensions["job_dispatcher"] = lambda task, *row_ids: None  # recorded, not run
    job = create(api, {"operation": "void", "items": [{"passId": "pass_x"}] * 10_000})
    assert job["counts"]["total"] == 10_000


@pytest.mark.parametrize(("body", "status", "type_", "code", "param"), [
    ({"operation": "delete", "items": [{}]}, 400, "invalid_request_error",
     "unknown_operation", "operation"),
    ({"items": [{}]}, 400, "invalid_request_error", "parameter_missing", "operation"),
    ({"operation": 3, "items": [{}]}, 400, "invalid_request_error", "parameter_invalid",
     "operation"),
    ({"operation": "void", "items": {"passId": "pass_x"}}, 400, "invalid_request_error",
     "parameter_invalid", "items"),
    ({"operation": "void", "items": ["pass_x"]}, 400, "invalid_request_error",
     "parameter_invalid", "items.0"),
    ({"operation": "void", "items": []}, 400, "invalid_request_error", "no_items", "items"),
    ({"operation": "void"}, 400, "invalid_request_error", "parameter_missing", "items"),
    ({"operation": "void", "items": [{}], "colour": 1}, 400, "invalid_request_error",
     "parameter_unknown", "colour"),
    ({"operation": "void", "items": [{}], "templateId": "tmpl_x"}, 400,
     "invalid_request_error", "parameter_unknown", "templateId"),
    ({"operation": "issue", "items": [{}]}, 400, "invalid_request_error",
     "parameter_missing", "templateId"),
    ({"operation": "issue", "templateId": "tmpl_01jf3v7k2m4p6r8t0v2x4z6b8d", "items": [{}]},
     404, "not_found_error", "resource_missing", "templateId"),
    ({"operation": "update", "items": [{}], "notificationMode": "loud"}, 400,
     "invalid_request_error", "parameter_invalid", "notificationMode"),
    ({"operation": "upgrade", "templateId": "TEMPLATE", "toRevision": 0}, 400,
     "invalid_request_error", "parameter_invalid", "toRevision"),
    ({"operation": "upgrade", "templateId": "TEMPLATE", "toRevision": "2"}, 400,
     "invalid_request_error", "parameter_invalid", "toRevision"),
    ({"operation": "upgrade", "templateId": "TEMPLATE", "toRevision": 9}, 400,
     "invalid_request_error", "revision_not_found", "toRevision"),
    ({"operation": "upgrade", "templateId": "TEMPLATE", "items": [{}]}, 400,
     "invalid_request_error", "parameter_unknown", "items"),
])
def test_a_bad_request_is_refused_up_front(api: Api, template: dict[str, Any], body: dict,
                                           status: int, type_: str, code: str, param: str
                                           ) -> None:
    if body.get("templateId") == "TEMPLATE":
        body = {**body, "templateId": template["id"]}
    assert_error(api.post("/v1/bulk-jobs", body), status, type_, code, param)
    assert api.get("/v1/bulk-jobs").get_json()["data"] == []


def test_another_organizations_template_is_404(api: Api, other_api: Api) -> None:
    theirs = other_api.post("/v1/templates", template_body()).get_json()
    for operation in ("issue", "upgrade"):
        body: dict[str, Any] = {"operation": operation, "templateId": theirs["id"]}
        if operation == "issue":
            body["items"] = [member("Ada")]
        assert_error(api.post("/v1/bulk-jobs", body), 404, "not_found_error",
                     "resource_missing", "templateId")


def test_an_archived_template_is_refused(api: Api, template: dict[str, Any]) -> None:
    assert api.delete(f"/v1/templates/{template['id']}").status_code == 200
    assert_error(api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                            "items": [member("Ada")]}),
                 400, "invalid_request_error", "template_archived", "templateId")


def test_the_post_is_idempotent(api: Api, template: dict[str, Any]) -> None:
    body = {"operation": "issue", "templateId": template["id"], "items": [member("Ada")]}
    first = api.post("/v1/bulk-jobs", body, idem="bulk-1")
    again = api.post("/v1/bulk-jobs", body, idem="bulk-1")
    assert first.status_code == again.status_code == 202
    assert again.get_data() == first.get_data()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(api.get("/v1/bulk-jobs").get_json()["data"]) == 1
    assert pass_count(api, template) == 1
    other = api.post("/v1/bulk-jobs", {**body, "items": [member("Bo")]}, idem="bulk-1")
    assert_error(other, 400, "idempotency_error", "idempotency_key_reused")


# ---- update, void, upgrade ---------------------------------------------------------------------

def issued(api: Api, template: dict[str, Any], *names: str) -> list[str]:
    job = issue_job(api, template, [member(name) for name in names])
    return [r["passId"] for r in results(api, job)]


def test_update_changes_each_pass_and_records_its_update(
        api: Api, other_api: Api, template: dict[str, Any]) -> None:
    ada, alan, voided = issued(api, template, "Ada", "Alan", "Cy")
    assert api.delete(f"/v1/passes/{voided}").status_code == 200
    theirs_template = other_api.post("/v1/templates", template_body()).get_json()
    theirs = other_api.post("/v1/passes", {"templateId": theirs_template["id"],
                                           **member("Zed")}).get_json()["id"]
    job = create(api, {"operation": "update", "notificationMode": "notify", "items": [
        {"passId": ada, "fieldValues": {"level": "Gold"}},
        {"passId": alan, "fieldValues": {"member": "Alan"}},  # unchanged
        {"passId": voided, "fieldValues": {"level": "Gold"}},
        {"passId": theirs, "fieldValues": {"level": "Gold"}},
        {"passId": ada, "notificationMode": "silent"},  # the job has one mode
    ]})
    assert job["notificationMode"] == "notify"
    rows = results(api, job)
    assert [r["status"] for r in rows] == ["succeeded"] + ["failed"] * 4
    assert rows[0]["passId"] == ada
    assert [(r["error"]["type"], r["error"]["code"]) for r in rows[1:]] == [
        ("invalid_request_error", "nothing_changed"),
        ("invalid_request_error", "pass_voided"),
        ("not_found_error", "resource_missing"),
        ("invalid_request_error", "parameter_unknown")]
    assert api.get(f"/v1/passes/{ada}").get_json()["fieldValues"] == {"member": "Ada",
                                                                      "level": "Gold"}
    [update] = api.get(f"/v1/passes/{ada}/updates").get_json()["data"]
    assert update["notificationMode"] == "notify"
    assert other_api.get(f"/v1/passes/{theirs}").get_json()["fieldValues"] == {"member": "Zed"}


def test_a_pass_updated_twice_in_one_job_gets_both_updates_in_order(
        api: Api, template: dict[str, Any]) -> None:
    [ada] = issued(api, template, "Ada")
    job = create(api, {"operation": "update", "items": [
        {"passId": ada, "fieldValues": {"level": "Gold"}},
        {"passId": ada, "fieldValues": {"level": "Silver"}}]})
    assert [r["status"] for r in results(api, job)] == ["succeeded", "succeeded"]
    assert api.get(f"/v1/passes/{ada}").get_json()["fieldValues"]["level"] == "Silver"
    updates = api.get(f"/v1/passes/{ada}/updates").get_json()["data"]
    assert [u["changes"]["fields"][0]["to"] for u in updates] == ["Silver", "Gold"]


def test_void_voids_each_pass_once(api: Api, template: dict[str, Any]) -> None:
    ada, alan = issued(api, template, "Ada", "Alan")
    job = create(api, {"operation": "void", "items": [{"passId": ada}, {"passId": alan},
                                                      {"passId": ada}, {"id": ada}]})
    rows = results(api, job)
    assert [r["status"] for r in rows] == ["succeeded", "succeeded", "failed", "failed"]
    assert rows[2]["error"]["code"] == "pass_already_voided"
    assert rows[2]["error"]["type"] == "conflict_error"
    assert rows[3]["error"]["code"] == "parameter_unknown"  # id: not a member
    assert {api.get(f"/v1/passes/{p}").get_json()["status"] for p in (ada, alan)} == {"voided"}


def test_upgrade_moves_the_active_passes_to_the_revision(
        api: Api, template: dict[str, Any]) -> None:
    ada, alan, voided = issued(api, template, "Ada", "Alan", "Cy")
    assert api.delete(f"/v1/passes/{voided}").status_code == 200
    changed = definition(description="Gym membership 2027")
    response = api.patch(f"/v1/templates/{template['id']}",
                         {"expectedRevision": 1, "definition": changed})
    assert response.status_code == 200, response.get_json()
    newer = issued(api, template, "Di")[0]  # on revision 2 already: not an item
    job = create(api, {"operation": "upgrade", "templateId": template["id"]})
    assert job["toRevision"] == 2 and job["notificationMode"] == "silent"
    assert job["counts"]["total"] == 2
    rows = results(api, job)
    assert sorted(r["passId"] for r in rows) == sorted([ada, alan])
    assert {r["status"] for r in rows} == {"succeeded"}
    for pass_id in (ada, alan, newer):
        assert api.get(f"/v1/passes/{pass_id}").get_json()["templateRevision"] == 2
    assert api.get(f"/v1/passes/{voided}").get_json()["templateRevision"] == 1
    [update] = api.get(f"/v1/passes/{ada}/updates").get_json()["data"]
    assert update["walletChanged"] is True
    assert update["changes"]["fields"] == [
        {"key": "templateRevision", "label": "Design", "from": "1", "to": "2"}]
    # Back to revision 1, on request.
    back = create(api, {"operation": "upgrade", "templateId": template["id"],
                        "toRevision": 1, "notificationMode": "notify"})
    assert back["counts"]["total"] == 3
    # Nothing left to move: a job of no items, completed at once.
    none = create(api, {"operation": "upgrade", "templateId": template["id"],
                        "toRevision": 1})
    assert none["counts"]["total"] == 0
    assert api.get(f"/v1/bulk-jobs/{none['id']}").get_json()["status"] == "completed"


# ---- reading, paging, cancel, tenants ----------------------------------------------------------

def test_results_are_paged_in_index_order(api: Api, template: dict[str, Any]) -> None:
    job = issue_job(api, template, [member(f"M{i}") for i in range(5)] + [{}])
    first = api.get(f"/v1/bulk-jobs/{job['id']}/results?limit=2").get_json()
    assert [r["index"] for r in first["data"]] == [0, 1]
    assert first["hasMore"] is True and first["nextCursor"] == "1"
    second = api.get(f"/v1/bulk-jobs/{job['id']}/results?limit=2&cursor=1").get_json()
    assert [r["index"] for r in second["data"]] == [2, 3] and second["nextCursor"] == "3"
    last = api.get(f"/v1/bulk-jobs/{job['id']}/results?limit=2&cursor=3").get_json()
    assert [r["index"] for r in last["data"]] == [4, 5]
    assert last == {**last, "hasMore": False, "nextCursor": None}
    failed = api.get(f"/v1/bulk-jobs/{job['id']}/results?status=failed").get_json()
    assert [r["index"] for r in failed["data"]] == [5]
    for bad, param in (("cursor=6", "cursor"), ("cursor=x", "cursor"), ("limit=0", "limit"),
                       ("status=done", "status")):
        assert_error(api.get(f"/v1/bulk-jobs/{job['id']}/results?{bad}"), 400,
                     "invalid_request_error", None, param)


def test_jobs_are_listed_newest_first(api: Api, template: dict[str, Any]) -> None:
    jobs = [issue_job(api, template, [member(f"M{i}")])["id"] for i in range(3)]
    page = api.get("/v1/bulk-jobs?limit=2").get_json()
    assert [j["id"] for j in page["data"]] == jobs[:0:-1]
    assert page["hasMore"] is True
    rest = api.get(f"/v1/bulk-jobs?limit=2&cursor={page['nextCursor']}").get_json()
    assert [j["id"] for j in rest["data"]] == [jobs[0]]
    assert api.get("/v1/bulk-jobs?status=completed").get_json()["data"][0]["id"] == jobs[2]
    assert api.get("/v1/bulk-jobs?status=queued").get_json()["data"] == []


def test_cancel_stops_what_has_not_started(api: Api, template: dict[str, Any],
                                           app: Flask) -> None:
    held: list[tuple[str, str]] = []
    app.extensions["job_dispatcher"] = lambda task, *row_ids: held.append((task, *row_ids))
    job = create(api, {"operation": "issue", "templateId": template["id"],
                       "items": [member("Ada"), member("Alan")]})
    assert held == [("run_bulk_job", job["id"])]
    response = api.post(f"/v1/bulk-jobs/{job['id']}/cancel")
    assert response.status_code == 200
    canceled = response.get_json()
    assert canceled["status"] == "canceled" and canceled["finishedAt"]
    assert canceled["counts"] == {"total": 2, "succeeded": 0, "failed": 0, "canceled": 2,
                                  "pending": 0}
    assert {r["status"] for r in results(api, job)} == {"canceled"}
    # The job that was held back finds nothing to do.
    from jobs import tasks

    with app.app_context():
        tasks.run_bulk_job(job["id"])
    assert pass_count(api, template) == 0
    assert_error(api.post(f"/v1/bulk-jobs/{job['id']}/cancel"), 409, "conflict_error",
                 "bulk_job_finished")


def test_a_finished_job_cannot_be_canceled(api: Api, template: dict[str, Any]) -> None:
    job = issue_job(api, template, [member("Ada")])
    error = assert_error(api.post(f"/v1/bulk-jobs/{job['id']}/cancel"), 409, "conflict_error",
                         "bulk_job_finished")
    assert error["message"] == "This bulk job is completed already."


def test_a_job_is_seen_only_in_its_organization_and_environment(
        api: Api, live_api: Api, other_api: Api, template: dict[str, Any]) -> None:
    job = issue_job(api, template, [member("Ada")])
    for client in (live_api, other_api):
        for method, path in (("GET", ""), ("GET", "/results"), ("POST", "/cancel")):
            assert_error(client.request(method, f"/v1/bulk-jobs/{job['id']}{path}"), 404,
                         "not_found_error", "resource_missing")
        assert client.get("/v1/bulk-jobs").get_json()["data"] == []
    assert_error(api.get("/v1/bulk-jobs/pass_x"), 404, "not_found_error", "resource_missing")


def test_a_restricted_key_needs_bulk_jobs_and_passes_write(
        app: Flask, client: FlaskClient, org: dict[str, Any], template: dict[str, Any]
        ) -> None:
    body = {"operation": "issue", "templateId": template["id"], "items": [member("Ada")]}
    reader = restricted(app, client, org, {"bulk_jobs": "read", "passes": "write"})
    assert_error(reader.post("/v1/bulk-jobs", body), 403, "permission_error",
                 "insufficient_scope")
    assert reader.get("/v1/bulk-jobs").status_code == 200
    no_passes = restricted(app, client, org, {"bulk_jobs": "write"})
    error = assert_error(no_passes.post("/v1/bulk-jobs", body), 403, "permission_error",
                         "insufficient_scope")
    assert "passes:write" in error["message"]
    both = restricted(app, client, org, {"bulk_jobs": "write", "passes": "write"})
    assert both.post("/v1/bulk-jobs", body).status_code == 202


# ---- the webhook and the document --------------------------------------------------------------

def test_bulk_job_completed_is_delivered(api: Api, template: dict[str, Any],
                                         receiver: Any) -> None:
    hook = api.post("/v1/webhook-endpoints", {"url": receiver.url,
                                              "enabledEvents": ["bulk_job.completed"]})
    assert hook.status_code == 201, hook.get_json()
    job = issue_job(api, template, [member("Ada"), {}])
    [request] = receiver.wait_for(1)
    payload = json.loads(request.body)
    assert payload["type"] == "bulk_job.completed"
    assert payload["data"]["object"] == {**job, "status": "completed"}
    assert payload["data"]["object"]["counts"] == {"total": 2, "succeeded": 1, "failed": 1,
                                                   "canceled": 0, "pending": 0}


def test_the_openapi_document_describes_bulk_jobs(api: Api) -> None:
    document = api.get("/v1/openapi.json").get_json()
    paths = document["paths"]
    assert set(paths["/v1/bulk-jobs"]) == {"get", "post"}
    post = paths["/v1/bulk-jobs"]["post"]
    assert post["x-permission"] == "bulk_jobs:write"
    assert post["responses"]["202"]["content"]["application/json"]["example"]["object"] == \
        "bulk_job"
    assert post["responses"]["400"]["content"]["application/json"]["example"]["error"][
        "code"] == "too_many_items"
    assert paths["/v1/bulk-jobs/{job_id}/results"]["get"]["x-permission"] == "bulk_jobs:read"
    assert "/v1/bulk-jobs/{job_id}/cancel" in paths and "/v1/bulk-jobs/{job_id}" in paths
    assert "bulk_job.completed" in str(document["components"])


# ---- the service underneath --------------------------------------------------------------------

def test_issue_all_reports_an_external_id_taken_meanwhile(
        app: Flask, api: Api, org: dict[str, Any], template: dict[str, Any]) -> None:
    """An externalId the job's own read did not see (another writer took it after): the
    unique index stops the batch, and each request is issued on its own instead."""
    from webapp.services.context import Context
    from webapp.services.passes import issuing, queries

    first = results(api, issue_job(api, template, [member("Ada", externalId="m-1")]))[0]
    ctx = Context(organization_id=org["id"], environment="test")
    reqs = [issuing.IssueRequest(template_id=template["id"], field_values={"member": name},
                                 external_id=external_id)
            for name, external_id in (("Bo", None), ("Ada", "m-1"), ("Cy", "m-2"))]
    with app.app_context():
        outcomes = issuing.issue_all(ctx, reqs)
        assert [type(o).__name__ for o in outcomes] == ["Pass", "Conflict", "Pass"]
        assert outcomes[1].code == "external_id_exists"  # type: ignore[union-attr]
        assert queries.external_pass_id(ctx, template["id"], "m-1") == first["passId"]
    assert pass_count(api, template) == 3


def test_cancel_between_chunks_keeps_what_was_done(
        app: Flask, api: Api, template: dict[str, Any], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    from webapp.services.bulk import runner

    monkeypatch.setattr(runner, "CHUNK_SIZE", 2)
    held: list[tuple[str, str]] = []
    app.extensions["job_dispatcher"] = lambda task, *row_ids: held.append((task, *row_ids))
    job = create(api, {"operation": "issue", "templateId": template["id"],
                       "items": [member(f"M{i}") for i in range(5)]})
    with app.app_context():
        assert runner._turn(job["id"], _rules()) is False  # one chunk of two, not ended
    assert held[-1] == ("run_bulk_job", job["id"])  # its next turn is queued
    running = api.get(f"/v1/bulk-jobs/{job['id']}").get_json()
    assert running["status"] == "running"
    assert running["counts"] == {"total": 5, "succeeded": 2, "failed": 0, "canceled": 0,
                                 "pending": 3}
    canceled = api.post(f"/v1/bulk-jobs/{job['id']}/cancel").get_json()
    assert canceled["counts"] == {"total": 5, "succeeded": 2, "failed": 0, "canceled": 3,
                                  "pending": 0}
    with app.app_context():
        assert runner._turn(job["id"], _rules()) is False  # canceled: nothing more
    assert [r["status"] for r in results(api, job)] == ["succeeded"] * 2 + ["canceled"] * 3
    assert pass_count(api, template) == 2


def test_jobs_take_turns_and_an_organizations_jobs_run_one_after_another(
        app: Flask, api: Api, other_api: Api, template: dict[str, Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import timedelta

    from webapp import clock
    from webapp.services.bulk import jobs, runner

    monkeypatch.setattr(runner, "CHUNK_SIZE", 2)
    held: list[tuple[str, str]] = []
    app.extensions["job_dispatcher"] = lambda task, *row_ids: held.append((task, *row_ids))
    other_template = other_api.post("/v1/templates", template_body()).get_json()
    first = create(api, {"operation": "issue", "templateId": template["id"],
                         "items": [member(f"M{i}") for i in range(3)]})
    second = create(api, {"operation": "issue", "templateId": template["id"],
                          "items": [member("Later")]})
    theirs = create(other_api, {"operation": "issue", "templateId": other_template["id"],
                                "items": [member("Theirs")]})

    def turn(job: dict[str, Any]) -> bool:
        held.clear()
        with app.app_context():
            return runner._turn(job["id"], _rules())

    def status(client: Api, job: dict[str, Any]) -> tuple[str, int]:
        got = client.get(f"/v1/bulk-jobs/{job['id']}").get_json()
        return got["status"], got["counts"]["succeeded"]

    assert turn(second) is False and held == []  # the first of its organization goes first
    assert status(api, second) == ("queued", 0)
    assert turn(first) is False and held == [("run_bulk_job", first["id"])]  # a chunk, again
    assert turn(theirs) is True  # another organization's job runs between the chunks
    assert status(other_api, theirs) == ("completed", 1)
    assert turn(first) is True and status(api, first) == ("completed", 3)
    assert held == [("run_bulk_job", second["id"])]  # it wakes the next
    assert turn(second) is True and status(api, second) == ("completed", 1)

    third, fourth = (create(api, {"operation": "issue", "templateId": template["id"],
                                  "items": [member(n)]}) for n in ("C", "D"))
    later = clock.now() + timedelta(minutes=5)
    with app.app_context():  # the sweep hands over only the job whose turn it is
        assert jobs.stale(later, later, 100) == [("run_bulk_job", third["id"])]
    assert fourth["status"] == "queued"


def _rules() -> Any:
    from webapp.api import bulk_job_items

    return bulk_job_items.RULES


def test_an_unexpected_error_fails_the_job_and_cancels_the_rest(
        app: Flask, api: Api, template: dict[str, Any]) -> None:
    """Not an item's service error (here a reader that breaks): the chunk rolls back, the
    job is failed, its items canceled, and bulk_job.completed says so."""
    from webapp.services import bulk

    app.extensions["job_dispatcher"] = lambda task, *row_ids: None
    job = create(api, {"operation": "issue", "templateId": template["id"],
                       "items": [member("Ada"), member("Alan")]})

    def broken(operation: str, item: dict[str, Any]) -> dict[str, Any]:
        if item["fieldValues"]["member"] == "Alan":
            raise RuntimeError("a bug")
        return {"field_values": item["fieldValues"]}

    with app.app_context():
        bulk.run(job["id"], bulk.ItemRules(parse=broken, error=_rules().error))
    failed = api.get(f"/v1/bulk-jobs/{job['id']}").get_json()
    assert failed["status"] == "failed" and failed["finishedAt"]
    assert failed["counts"] == {"total": 2, "succeeded": 0, "failed": 0, "canceled": 2,
                                "pending": 0}
    assert pass_count(api, template) == 0  # Ada's pass went with the chunk
    [event] = api.get("/v1/events?type=bulk_job.completed").get_json()["data"]
    assert event["data"]["object"] == failed



_WRITER = """
import sys, time
from pathlib import Path
from sqlalchemy import text
from tests.conftest import base_overrides
from webapp import create_app

app = create_app(base_overrides(Path(sys.argv[1]), sys.argv[2]))
with app.app_context():
    from webapp.db.transaction import transaction
    print("ready", flush=True)
    sys.stdin.readline()  # the job is running
    with transaction() as session:
        pending = session.execute(text(
            "SELECT count(*) FROM bulk_job_items WHERE status = 'pending'")).scalar_one()
print(pending)
"""


def test_another_process_writes_between_a_running_jobs_chunks(
        app: Flask, api: Api, template: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Any) -> None:
    """SQLite's writers' lock is not first come, first served: without a pause between
    chunks the runner takes it straight back, and another process's write waits for the
    whole job."""
    import subprocess
    import sys
    import threading
    import time

    from webapp.services.bulk import runner

    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if not url.startswith("sqlite"):
        pytest.skip("the writers' lock is SQLite's")
    monkeypatch.setattr(runner, "CHUNK_SIZE", 100)
    app.extensions["job_dispatcher"] = lambda task, *row_ids: None
    job = create(api, {"operation": "issue", "templateId": template["id"],
                       "items": [member(f"M{i}") for i in range(3000)]})
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path), url],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None and writer.stdin is not None
    assert writer.stdout.readline().strip() == "ready"

    def run() -> None:  # the job's turns, one after another (its queue is held)
        with app.app_context():
            while not runner._turn(job["id"], _rules()):
                time.sleep(runner.PAUSE_BETWEEN_CHUNKS)

    worker = threading.Thread(target=run)
    worker.start()
    try:
        deadline = time.monotonic() + 60
        while api.get(f"/v1/bulk-jobs/{job['id']}").get_json()["counts"]["succeeded"] < 200:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        out, _ = writer.communicate("go\n", timeout=120)
    finally:
        worker.join(120)
    assert writer.returncode == 0
    assert int(out.strip().splitlines()[-1]) > 0, "the other write waited for the whole job"
    assert api.get(f"/v1/bulk-jobs/{job['id']}").get_json()["status"] == "completed"


def test_a_chunks_updates_are_pushed_by_one_job(
        app: Flask, api: Api, template: dict[str, Any]) -> None:
    """One delivery job per chunk, not per pass: the in-process queue of a 100,000-pass
    update holds hundreds of jobs, so the service's memory stays flat."""
    from jobs import tasks

    passes = issued(api, template, "Ada", "Alan", "Cy")
    held: list[tuple[str, ...]] = []
    app.extensions["job_dispatcher"] = lambda task, *row_ids: held.append((task, *row_ids))
    job = create(api, {"operation": "update", "notificationMode": "silent", "items": [
        {"passId": p, "fieldValues": {"level": "Gold"}} for p in passes]})
    with app.app_context():
        tasks.run_bulk_job(job["id"])
    updates = [api.get(f"/v1/passes/{p}/updates").get_json()["data"][0]["id"] for p in passes]
    assert [h for h in held if h[0].startswith("deliver")] == [
        ("deliver_pass_updates", *updates)]
    with app.app_context():
        tasks.deliver_pass_updates(*updates)
    for p in passes:
        [update] = api.get(f"/v1/passes/{p}/updates").get_json()["data"]
        assert update["delivery"]["apple"]["status"] not in ("pending", "skipped"), update


def test_a_finished_job_refreshes_the_planner_statistics(
        app: Flask, api: Api, template: dict[str, Any]) -> None:
    """PostgreSQL: the passes a job wrote are in the statistics the next job is planned with
    (without them a first big import's externalId lookups scan the template's passes).
    SQLite: nothing to refresh, and nothing is written."""
    from sqlalchemy import text

    from webapp.extensions import db

    with app.app_context():
        postgres = db.engine.dialect.name == "postgresql"
        if postgres:
            before = db.session.scalar(text(
                "SELECT coalesce(analyze_count, 0) FROM pg_stat_user_tables "
                "WHERE relname = 'passes'"))
    issue_job(api, template, [member("Ada", externalId="m-1"), member("Bo")])
    with app.app_context():
        if postgres:
            # The statistics collector reports a moment later: wait for it.
            for _ in range(50):
                db.session.execute(text("SELECT pg_stat_clear_snapshot()"))
                after = db.session.scalar(text(
                    "SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'passes'"))
                if after > before:
                    break
                db.session.rollback()
                time.sleep(0.1)
            assert after == before + 1
            reltuples = db.session.scalar(text(
                "SELECT reltuples FROM pg_class WHERE relname = 'passes'"))
            assert reltuples == 2
        else:
            assert db.session.scalar(text(
                "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'")) == 0


def test_a_chunks_external_id_lookup_reads_its_unique_index(
        app: Flask, api: Api, template: dict[str, Any]) -> None:
    """SQLite (no statistics) answers the runner's lookup from the unique index, not by
    reading every pass of the template through the scope's index (which slowed each chunk as
    the template grew). PostgreSQL plans from statistics: the test above."""
    from sqlalchemy import text

    from webapp.extensions import db

    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite's planner: PostgreSQL's is the statistics test")
        plan = db.session.execute(text(
            "EXPLAIN QUERY PLAN SELECT external_id, id FROM passes WHERE template_id = :t "
            "AND environment = 'test' AND organization_id = 'org' AND external_id IN "
            "('m-1', 'm-2', 'm-3')"), {"t": template["id"]}).all()
    assert "USING INDEX ux_passes_scope_template_external_id" in str(plan), plan
