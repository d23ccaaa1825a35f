"""Tags on passes (issue 33): `tags` on POST and PATCH /v1/passes, in bulk jobs, the filter
`GET /v1/passes?tag=` with cursors and per tenant, and tags erased with the holder."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from tests.api.factories import template_body
from tests.conftest import Api, assert_error


@pytest.fixture(autouse=True)
def _inline_jobs(app: Flask) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True)


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    response = api.post("/v1/templates", template_body())
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def issue(api: Api, template: dict[str, Any], **body: Any) -> dict[str, Any]:
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"}, **body})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def listed(api: Api, query: str) -> dict[str, Any]:
    response = api.get(f"/v1/passes?{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def pass_tag_rows(app: Flask, pass_id: str) -> list[str]:
    from webapp.extensions import db
    from webapp.models import PassTag

    with app.app_context():
        return sorted(db.session.scalars(select(PassTag.tag).where(PassTag.pass_id == pass_id)))


def test_tags_default_to_none_and_are_shown_everywhere(api: Api, template: dict[str, Any]
                                                       ) -> None:
    plain = issue(api, template)
    assert plain["tags"] == []
    tagged = issue(api, template, tags=["VIP", "Season-2027", "vip", " gold "])
    # Lower case, trimmed, a repeat kept once at its first place.
    assert tagged["tags"] == ["vip", "season-2027", "gold"]
    assert api.get(f"/v1/passes/{tagged['id']}").get_json()["tags"] == tagged["tags"]
    [row] = [p for p in listed(api, "limit=10")["data"] if p["id"] == tagged["id"]]
    assert row["tags"] == tagged["tags"]
    [event] = [e for e in api.get("/v1/events?type=pass.created&limit=10").get_json()["data"]
               if e["data"]["object"]["id"] == tagged["id"]]
    assert event["data"]["object"]["tags"] == tagged["tags"]


def test_unicode_tags_are_lower_cased(api: Api, template: dict[str, Any]) -> None:
    assert issue(api, template, tags=["Stammgäste", "ÉTÉ:2027", "İzmir"])["tags"] == [
        "stammgäste", "été:2027", "i\u0307zmir"]


@pytest.mark.parametrize(("tags", "code", "param"), [
    (["x"] * 0 + [f"t{i}" for i in range(21)], "too_many_tags", "tags"),
    (["a" * 41], "tag_too_long", "tags.0"),
    (["ok", ""], "tag_empty", "tags.1"),
    (["   "], "tag_empty", "tags.0"),
    (["has space"], "tag_invalid", "tags.0"),
    (["a,b"], "tag_invalid", "tags.0"),
    (["-lead"], "tag_invalid", "tags.0"),
    (["_lead"], "tag_invalid", "tags.0"),
    (["\u0301accent-first"], "tag_invalid", "tags.0"),
    (["a/b"], "tag_invalid", "tags.0"),
    ("vip", "parameter_invalid", "tags"),
    ([1], "parameter_invalid", "tags.0"),
    (None, "parameter_invalid", "tags"),
    ({"a": "b"}, "parameter_invalid", "tags"),
])
def test_bad_tags_are_refused_with_the_documented_error(
        api: Api, template: dict[str, Any], tags: Any, code: str, param: str) -> None:
    body = {"templateId": template["id"], "fieldValues": {"member": "Ada"}, "tags": tags}
    assert_error(api.post("/v1/passes", body), 400, "invalid_request_error", code, param)
    issued = issue(api, template)
    assert_error(api.patch(f"/v1/passes/{issued['id']}", {"tags": tags}), 400,
                 "invalid_request_error", code, param)


def test_twenty_tags_of_forty_characters_are_taken(api: Api, template: dict[str, Any]
                                                   ) -> None:
    tags = [f"{i:02d}" + "x" * 38 for i in range(20)]
    assert issue(api, template, tags=tags)["tags"] == tags
    # 21 given, 20 after the repeat is dropped: taken.
    assert len(issue(api, template, tags=[*tags, tags[0].upper()])["tags"]) == 20


def test_patch_replaces_the_list_and_changes_no_wallet(app: Flask, api: Api,
                                                       template: dict[str, Any]) -> None:
    issued = issue(api, template, tags=["vip", "gold"])
    response = api.patch(f"/v1/passes/{issued['id']}", {"tags": ["Silver"]})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body["pass"]["tags"] == ["silver"]
    assert body["update"]["walletChanged"] is False
    assert body["update"]["changes"]["fields"] == [
        {"key": "pass.tags", "label": "Tags", "from": "vip, gold", "to": "silver"}]
    assert pass_tag_rows(app, issued["id"]) == ["silver"]
    cleared = api.patch(f"/v1/passes/{issued['id']}", {"tags": []}).get_json()
    assert cleared["pass"]["tags"] == [] and pass_tag_rows(app, issued["id"]) == []
    assert_error(api.patch(f"/v1/passes/{issued['id']}", {"tags": []}), 400,
                 "invalid_request_error", "nothing_changed", "tags")
    # Leaving tags out keeps them.
    api.patch(f"/v1/passes/{issued['id']}", {"tags": ["a"]})
    kept = api.patch(f"/v1/passes/{issued['id']}", {"fieldValues": {"member": "Bo"}})
    assert kept.get_json()["pass"]["tags"] == ["a"]


def test_filter_by_tag_pages_with_cursors(api: Api, template: dict[str, Any]) -> None:
    vip = [issue(api, template, tags=["vip"] if i % 2 else ["vip", "gold"])["id"]
           for i in range(5)]
    issue(api, template, tags=["gold"])
    issue(api, template)
    seen: list[str] = []
    query = "tag=VIP&limit=2"
    while True:
        page = listed(api, query)
        seen += [p["id"] for p in page["data"]]
        assert all("vip" in p["tags"] for p in page["data"])
        if not page["hasMore"]:
            break
        query = f"tag=vip&limit=2&cursor={page['nextCursor']}"
    assert seen == vip[::-1]
    assert len(listed(api, "tag=gold&limit=100")["data"]) == 4
    assert listed(api, "tag=nobody")["data"] == []
    # The other filters still apply.
    assert len(listed(api, f"tag=vip&templateId={template['id']}&limit=100")["data"]) == 5
    assert listed(api, "tag=vip&status=voided")["data"] == []


def test_a_bad_tag_filter_is_400(api: Api) -> None:
    assert_error(api.get("/v1/passes?tag=a%20b"), 400, "invalid_request_error", "tag_invalid",
                 "tag")
    assert_error(api.get("/v1/passes?tag=" + "a" * 41), 400, "invalid_request_error",
                 "parameter_invalid", "tag")
    assert_error(api.get("/v1/passes?tag="), 400, "invalid_request_error",
                 "parameter_invalid", "tag")


def test_the_filter_sees_only_its_own_tenant_and_environment(
        api: Api, live_api: Api, other_api: Api, template: dict[str, Any]) -> None:
    mine = issue(api, template, tags=["vip"])
    theirs_template = other_api.post("/v1/templates", template_body()).get_json()
    theirs = issue(other_api, theirs_template, tags=["vip"])
    assert [p["id"] for p in listed(api, "tag=vip")["data"]] == [mine["id"]]
    assert [p["id"] for p in listed(other_api, "tag=vip")["data"]] == [theirs["id"]]
    assert listed(live_api, "tag=vip")["data"] == []
    # Another tenant's pass is no cursor here.
    assert_error(api.get(f"/v1/passes?tag=vip&cursor={theirs['id']}"), 400,
                 "invalid_request_error", "invalid_cursor", "cursor")
    assert_error(other_api.patch(f"/v1/passes/{mine['id']}", {"tags": ["x"]}), 404,
                 "not_found_error")


def test_bulk_jobs_issue_and_update_tags(app: Flask, api: Api, template: dict[str, Any]
                                         ) -> None:
    items = [{"fieldValues": {"member": "A"}, "tags": ["Bulk", "vip"]},
             {"fieldValues": {"member": "B"}, "tags": ["x" * 41]},
             {"fieldValues": {"member": "C"}}]
    job = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                     "items": items})
    assert job.status_code == 202, job.get_data(as_text=True)
    results = api.get(f"/v1/bulk-jobs/{job.get_json()['id']}/results").get_json()["data"]
    assert [r["status"] for r in results] == ["succeeded", "failed", "succeeded"]
    assert results[1]["error"]["code"] == "tag_too_long"
    assert results[1]["error"]["param"] == "tags.0"
    first, third = results[0]["passId"], results[2]["passId"]
    assert api.get(f"/v1/passes/{first}").get_json()["tags"] == ["bulk", "vip"]
    assert [p["id"] for p in listed(api, "tag=bulk")["data"]] == [first]
    update = api.post("/v1/bulk-jobs", {"operation": "update", "items": [
        {"passId": first, "tags": []}, {"passId": third, "tags": ["bulk"]},
        {"passId": third, "tags": "bulk"}]})
    assert update.status_code == 202, update.get_data(as_text=True)
    done = api.get(f"/v1/bulk-jobs/{update.get_json()['id']}/results").get_json()["data"]
    assert [r["status"] for r in done] == ["succeeded", "succeeded", "failed"]
    assert done[2]["error"]["code"] == "parameter_invalid"
    assert [p["id"] for p in listed(api, "tag=bulk")["data"]] == [third]
    assert pass_tag_rows(app, first) == [] and pass_tag_rows(app, third) == ["bulk"]


def test_erasure_removes_the_tags_and_export_shows_them(app: Flask, api: Api,
                                                        template: dict[str, Any]) -> None:
    issued = issue(api, template, tags=["zq-secret-tag", "vip"])
    api.patch(f"/v1/passes/{issued['id']}", {"tags": ["zq-secret-tag", "gold"]},
              idem="tags-1")
    exported = api.get(f"/v1/passes/{issued['id']}/export")
    assert exported.status_code == 200, exported.get_data(as_text=True)
    assert "zq-secret-tag" in json.dumps(exported.get_json())
    erased = api.post(f"/v1/passes/{issued['id']}/erase")
    assert erased.status_code == 200, erased.get_data(as_text=True)
    assert erased.get_json()["tags"] == []
    assert pass_tag_rows(app, issued["id"]) == []
    assert listed(api, "tag=vip")["data"] == [] and listed(api, "tag=gold")["data"] == []
    from tests.api.test_erasure import _database_text

    assert "zq-secret-tag" not in _database_text(app)


def test_the_filter_reads_pass_tags_index_newest_first(app: Flask, api: Api,
                                                       template: dict[str, Any]) -> None:
    """`?tag=` walks (organization, environment, tag, pass) in order and looks each pass up
    by its key: no sort, and no read of the scope's other passes (a rare tag at a million
    passes). PostgreSQL plans by statistics: there the index must at least be usable."""
    from sqlalchemy import event

    from webapp.extensions import db

    first = issue(api, template, tags=["vip"])
    seen: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if "pass_tags" in statement and "ORDER BY" in statement:
            seen.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", capture)
    try:
        listed(api, f"tag=vip&limit=5&cursor={first['id']}")
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    [(statement, parameters)] = seen
    with app.app_context(), engine.connect() as connection:
        raw = connection.connection.driver_connection
        cursor = raw.cursor()
        if engine.dialect.name == "sqlite":
            cursor.execute("EXPLAIN QUERY PLAN " + statement, parameters)
            plan = " | ".join(str(row[-1]) for row in cursor.fetchall())
            assert "USING COVERING INDEX ix_pass_tags_scope_tag_pass" in plan, plan
            assert "TEMP B-TREE" not in plan and "SCAN passes" not in plan, plan
        else:
            cursor.execute("SET enable_seqscan = off")
            cursor.execute("EXPLAIN " + statement, parameters)
            plan = " | ".join(str(row[0]) for row in cursor.fetchall())
            assert "ix_pass_tags_scope_tag_pass" in plan, plan


def test_the_openapi_document_has_the_member_and_the_filter(api: Api) -> None:
    document = api.client.get("/v1/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    shown = schemas["Pass"]["properties"]["tags"]
    assert shown["type"] == "array" and shown["items"] == {"type": "string"}
    assert "tags" in schemas["Pass"]["required"]
    for operation in (document["paths"]["/v1/passes"]["post"],
                      document["paths"]["/v1/passes/{pass_id}"]["patch"]):
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        name = body["$ref"].rsplit("/", 1)[-1] if "$ref" in body else None
        taken = (schemas[name] if name else body)["properties"]["tags"]
        assert taken["type"] == "array" and taken["maxItems"] == 20
        assert taken["items"] == {"type": "string", "minLength": 1, "maxLength": 40}
    [tag] = [p for p in document["paths"]["/v1/passes"]["get"]["parameters"]
             if p["name"] == "tag"]
    assert tag["in"] == "query" and tag["schema"]["maxLength"] == 40
    assert "lower case" in tag["schema"].get("description", "") + tag.get("description", "")
