"""What one request can make the server do is bounded (issue 22, item 1).

A 7.8 MB definition of bad items used to take 54 s, answer 474 MB and store 631 MB with its
Idempotency-Key. Bodies, nesting, definitions, the issues listed and stored answers now have
limits, and the largest request inside them is answered quickly and in a few KiB.
"""

from __future__ import annotations

import json
import time

import pytest
from flask import Flask

from tests.api.factories import definition, template_body
from tests.conftest import Api, assert_error
from webapp.api.requests import MAX_JSON_BODY, MAX_JSON_DEPTH
from webapp.db import idempotency
from webapp.domain.definition import MAX_DEFINITION_CHARACTERS
from webapp.extensions import db
from webapp.models import IdempotencyRecord


def _stored_answer_sizes(app: Flask) -> list[int]:
    with app.app_context():
        return [len(body or "") for body in db.session.scalars(
            db.select(IdempotencyRecord.body))]


def test_a_body_over_one_mib_is_413_before_it_is_parsed(api: Api, app: Flask) -> None:
    body = template_body()
    body["definition"].update({f"x{i}": 0 for i in range(100_000)})
    raw = json.dumps(body)
    assert len(raw) > MAX_JSON_BODY
    response = api.post("/v1/templates", data=raw, headers={"Content-Type": "application/json"})
    error = assert_error(response, 413, "invalid_request_error", "body_too_large")
    assert error["message"] == (f"The request body is {len(raw):,} bytes; a JSON body can be "
                                f"at most {MAX_JSON_BODY:,} bytes here.")
    assert max(_stored_answer_sizes(app)) < 2_000


def test_nesting_deeper_than_the_limit_is_refused(api: Api) -> None:
    deep: object = "x"
    for _ in range(MAX_JSON_DEPTH):
        deep = [deep]
    response = api.post("/v1/templates", template_body(logoText=deep))
    error = assert_error(response, 400, "invalid_request_error", "invalid_json")
    assert error["message"].startswith(f"The request body nests more than {MAX_JSON_DEPTH} "
                                       "levels deep (at definition.logoText.0.")


def test_nesting_at_the_limit_reaches_the_definition_checks(api: Api) -> None:
    deep: object = "x"
    for _ in range(MAX_JSON_DEPTH - 3):  # the body, definition and logoText are 3 levels
        deep = [deep]
    response = api.post("/v1/templates", template_body(logoText=deep))
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition")
    assert error["issues"][0]["path"] == "/logoText"


def test_a_definition_over_its_size_gets_one_issue(api: Api) -> None:
    body = template_body()
    body["definition"].update({f"x{i}": 0 for i in range(8_000)})
    response = api.post("/v1/templates", body)
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition",
                         "definition")
    size = len(json.dumps(body["definition"], separators=(",", ":")))
    assert error["issues"] == [{
        "path": "", "code": "too_large",
        "message": f"The definition is {size:,} characters of JSON; it can be at most "
                   f"{MAX_DEFINITION_CHARACTERS:,}."}]
    assert error["issueCount"] == 1
    assert error["message"] == "The template definition has 1 problem."


def test_the_first_100_issues_are_listed_with_the_total(api: Api, app: Flask) -> None:
    images = {f"s{i}": "asset_x" for i in range(2_000)}  # each one an unknown slot
    started = time.perf_counter()
    response = api.post("/v1/templates", template_body(images=images))
    elapsed = time.perf_counter() - started
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition")
    assert error["issueCount"] == 2_000
    assert len(error["issues"]) == 100
    assert error["issues"][0]["path"] == "/images/s0"
    assert error["issues"][99]["path"] == "/images/s99"
    assert error["message"] == ("The template definition has 2,000 problems; the first 100 "
                                "are listed.")
    assert len(response.get_data()) < 20_000
    assert max(_stored_answer_sizes(app)) < 40_000  # encrypted, so a little larger
    assert elapsed < 2.0  # was minutes at this scale; a generous bound for slow machines


def test_a_few_issues_are_all_listed(api: Api) -> None:
    response = api.post("/v1/templates", template_body(logoText=5, description=""))
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition")
    assert error["issueCount"] == len(error["issues"]) == 2


@pytest.mark.parametrize(("group", "limit"), [("back", 30), ("secondary", 4)])
def test_fields_past_a_group_limit_are_one_issue(api: Api, group: str, limit: int) -> None:
    items = [{"key": f"k{i}", "label": "L", "binding": "shared", "value": "v", "oops": 1}
             for i in range(limit + 500)]
    d = definition()
    d["config"]["fields"] = {"primary": d["config"]["fields"]["primary"], group: items}
    error = assert_error(api.post("/v1/templates", {"name": "x", "type": "generic",
                                                     "definition": d}),
                         400, "invalid_request_error", "invalid_definition")
    codes = [issue["code"] for issue in error["issues"]]
    assert codes.count("too_many") == 1
    assert codes.count("unknown_member") == limit  # only the fields inside the limit
    assert error["issueCount"] == limit + 1


def test_thirty_back_fields_are_fine(api: Api) -> None:
    d = definition()
    d["config"]["fields"]["back"] = [
        {"key": f"b{i}", "label": "Terms", "binding": "shared", "value": "x" * 500}
        for i in range(30)]
    response = api.post("/v1/templates", {"name": "x", "type": "generic", "definition": d})
    assert response.status_code == 201, response.get_data(as_text=True)


def test_locations_past_the_limit_are_one_issue(api: Api) -> None:
    error = assert_error(api.post("/v1/templates", template_body(
        locations=[{"latitude": "north"}] * 2_500)), 400, "invalid_request_error",
        "invalid_definition")
    assert error["issueCount"] == 1 + 10 * 2  # too_many, then each of 10: type + longitude


def test_the_worst_definition_inside_the_limits_is_quick(api: Api) -> None:
    d = definition()
    d["config"]["fields"]["back"] = [{f"m{j}": 0 for j in range(150)} for _ in range(30)]
    d["images"] = {f"s{i}": 0 for i in range(1_500)}
    started = time.perf_counter()
    response = api.post("/v1/templates", {"name": "x", "type": "generic", "definition": d})
    elapsed = time.perf_counter() - started
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition")
    assert len(error["issues"]) == 100
    assert elapsed < 2.0


def test_an_answer_over_the_stored_limit_is_refused(app: Flask, org: dict) -> None:
    from webapp.services.context import Context

    ctx = Context(organization_id=org["id"], environment="test", actor="api")
    claimed = idempotency.Claim(ctx, "k", "f" * 64)
    with app.app_context(), pytest.raises(ValueError, match="MAX_STORED_ANSWER"):
        idempotency.store(db.session, claimed, 200, "x" * (idempotency.MAX_STORED_ANSWER + 1))
