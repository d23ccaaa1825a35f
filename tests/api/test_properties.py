"""Property-based runs against the real app.

1. Schemathesis reads `/v1/openapi.json` and drives every documented operation with
   generated (valid and invalid) requests: no 5xx, every status code documented, every body
   and header as documented, the documented content type; invalid input, a missing
   Idempotency-Key, a missing key and an undocumented method are refused. Each operation is
   a test function of its own (`test_<operationId>_answers_as_documented`), so that each has
   its own node ID: under pytest 9, schemathesis gives all the operations of one
   `parametrize()`d function the same node ID, and pytest-xdist then runs only one of them.
   Two tests check that every operation of the document has its test and was exercised.
2. Hypothesis throws arbitrary JSON at `POST /v1/templates` (201, matching the documented
   template, or the exact error shape) and arbitrary query strings at the lists (200 or 400).

Bounded for CI: fixed seeds, derandomized, a few dozen examples per operation.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.api.factories import template_body
from tests.conftest import Api, base_overrides
from webapp import create_app

IDEMPOTENCY_KEY = re.compile(r"[ -~]{1,255}")

# -- schemathesis --------------------------------------------------------------------------

CONFIG = {
    "seed": 20261122,
    "suppress-health-check": ["all"],
    "generation": {"mode": "all", "max-examples": 30, "deterministic": True,
                   "database": "none", "with-security-parameters": False},
    "phases": {"examples": {"enabled": True}, "coverage": {"enabled": True},
               "fuzzing": {"enabled": True}, "stateful": {"enabled": False}},
    # The coverage phase walks every keyword of the (large) definition schema: hundreds of
    # near-identical 400s for seconds. Fuzzing covers those two operations instead.
    "operations": [{"include-operation-id": ["api_create_template", "api_update_template"],
                    "phases": {"coverage": {"enabled": False}},
                    "generation": {"max-examples": 60}}],
}


def _checks() -> list[Any]:
    """Every answer as documented; invalid input refused; auth, methods and headers enforced.

    Not `positive_data_acceptance`: a schema-valid request may still break a business rule
    (stale revision, unknown cursor, a template without that field) and rightly get a 400.
    """
    from schemathesis import checks

    return [checks.not_a_server_error, checks.status_code_conformance,
            checks.content_type_conformance, checks.response_schema_conformance,
            checks.response_headers_conformance, checks.negative_data_rejection,
            checks.missing_required_header, checks.unsupported_method, checks.ignored_auth]


def _document_app() -> Flask:
    """An app only to serve the document at collection time (it never opens its database)."""
    return create_app(base_overrides(Path("/nonexistent"), "sqlite://"))


schema = schemathesis.openapi.from_wsgi("/v1/openapi.json", _document_app(),
                                        config=schemathesis.Config.from_dict(CONFIG))

# IDs of resources that exist in the current test's database (set by the `seeded` fixture).
SEEDED: dict[str, str] = {}


@schema.hook
def before_generate_path_parameters(context: Any, strategy: Any) -> Any:
    """Half of the time, the path names a resource that exists, to get past the 404."""

    def real(params: dict[str, Any] | None) -> dict[str, Any] | None:
        if not isinstance(params, dict):
            return params
        return {name: SEEDED.get(name, value) for name, value in params.items()}

    return st.one_of(strategy, strategy.map(real))


@schema.hook
def before_generate_body(context: Any, strategy: Any) -> Any:
    """Likewise for a `templateId` in a body (issuing a pass)."""

    def real(body: Any) -> Any:
        if isinstance(body, dict) and "templateId" in body and "template_id" in SEEDED:
            return {**body, "templateId": SEEDED["template_id"]}
        return body

    return st.one_of(strategy, strategy.map(real))


def _created(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


@pytest.fixture
def seeded(api: Api, png: Any) -> Iterator[dict[str, str]]:
    asset = _created(api.post("/v1/assets", {"slot": "icon", "data": png()}))
    template = _created(api.post("/v1/templates", template_body()))
    issued = _created(api.post("/v1/passes", {"templateId": template["id"],
                                               "fieldValues": {"member": "Ada"}}))
    changed = api.patch(f"/v1/passes/{issued['id']}", {"fieldValues": {"member": "Grace"}})
    assert changed.status_code == 200, changed.get_data(as_text=True)
    link = _created(api.post(f"/v1/passes/{issued['id']}/download-links", {}))
    SEEDED.update(template_id=template["id"], asset_id=asset["id"], pass_id=issued["id"],
                  update_id=changed.get_json()["update"]["id"], link_id=link["id"])
    yield SEEDED
    SEEDED.clear()


HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
# Labels ("POST /v1/templates") of the operations a case was sent to, in this process.
EXERCISED: set[str] = set()


def _documented_operations(document: dict[str, Any]) -> dict[str, str | None]:
    """Every operation of an OpenAPI document: its label -> its operationId."""
    return {f"{method.upper()} {path}": operation.get("operationId")
            for path, item in document["paths"].items()
            for method, operation in item.items() if method in HTTP_METHODS}


def _answers_as_documented(case: Any, app: Flask, org: dict[str, Any],
                           seeded: dict[str, str]) -> None:
    EXERCISED.add(case.operation.label)
    headers = {"Authorization": f"Bearer {org['keys']['test']}"}
    key = (case.headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and IDEMPOTENCY_KEY.fullmatch(key):
        # A valid key: make it unique, so a generated "0" is not reused for another body.
        headers["Idempotency-Key"] = str(uuid.uuid4())
    case.call_and_validate(app=app, headers=headers, checks=_checks())


def _test_name(operation_id: str) -> str:
    return f"test_{operation_id}_answers_as_documented"


def _only(label: str) -> Any:
    """The schema with the one operation `label` ("POST /v1/templates").

    Not `schema.include(...)`: with `operations` in the config, the schema's filter already
    includes every operation, and an include only adds to it (an exclude does narrow it)."""
    return schema.exclude(lambda ctx: ctx.operation.label != label)


# One test function per operation (see the module docstring); label -> the name of its test.
OPERATION_TESTS: dict[str, str] = {}
for _label, _operation_id in _documented_operations(schema.raw_schema).items():
    if _operation_id:
        OPERATION_TESTS[_label] = _test_name(_operation_id)
        globals()[_test_name(_operation_id)] = _only(_label).parametrize()(_answers_as_documented)


def _items_of_this_file(request: pytest.FixtureRequest) -> list[pytest.Item]:
    return [item for item in request.session.items if item.path == request.node.path]


def test_every_documented_operation_has_a_test_of_its_own(client: Any,
                                                           request: pytest.FixtureRequest
                                                           ) -> None:
    """The document the app serves, operation by operation, against the tests above: one
    test function per operation, selecting exactly that operation, and no two collected
    tests of this file share a node ID (pytest-xdist would run only one of them)."""
    documented = _documented_operations(client.get("/v1/openapi.json").get_json())
    assert len(documented) >= 31, sorted(documented)
    assert [label for label, operation_id in documented.items() if not operation_id] == []
    assert len(set(documented.values())) == len(documented), "operationIds are not unique"
    tests = {label: _test_name(operation_id) for label, operation_id in documented.items()}
    assert tests == OPERATION_TESTS
    for label, name in tests.items():
        assert callable(globals()[name])
        assert [result.ok().label for result in _only(label).get_all_operations()] == [label]
    node_ids = Counter(item.nodeid for item in _items_of_this_file(request))
    assert [node_id for node_id, count in node_ids.items() if count > 1] == []


def _distribution(config: pytest.Config) -> str:
    """How pytest-xdist distributes this run: "no" when this process runs every test, else
    the `--dist` mode (a worker's own option says "no": read what it was started with)."""
    if not hasattr(config, "workerinput"):
        return "no"
    args = [*config.getini("addopts"), *shlex.split(os.environ.get("PYTEST_ADDOPTS", "")),
            *config.invocation_params.args]
    mode = "load"  # xdist's default
    for arg, following in zip(args, [*args[1:], ""], strict=True):
        if arg == "--dist":
            mode = following
        elif arg.startswith("--dist="):
            mode = arg.removeprefix("--dist=")
    return mode


def test_every_selected_operation_was_exercised(request: pytest.FixtureRequest) -> None:
    """Every operation test of this file that this process was given has sent cases (under
    pytest-xdist, a worker runs only one of the items that share a node ID).

    Runs after the operation tests: with `--dist loadfile` (`make test`) the whole file goes
    to one worker, in order; with a per-test distribution that is not known, so it skips."""
    if _distribution(request.config) not in ("no", "loadfile", "loadscope", "each"):
        pytest.skip("the operation tests of this file may have run on other workers")
    items = _items_of_this_file(request)
    given = {item.name.partition("[")[0] for item in items}
    selected = {label for label, name in OPERATION_TESTS.items() if name in given}
    # and whatever schemathesis collected, however it is named
    selected |= {item.operation_label for item in items if hasattr(item, "operation_label")}
    assert sorted(selected - EXERCISED) == []


# -- hypothesis: arbitrary JSON to POST /v1/templates ------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                max_size=4),
    max_leaves=12,
)
MEMBERS = st.sampled_from(["name", "type", "definition"]) | st.text(max_size=12)


def _variant(name: str, description: str, label: str, colors: tuple[str, str],
             apple: bool, google: bool) -> dict[str, Any]:
    """The valid body with its free texts, colours and platforms changed."""
    body = template_body(name=name, description=description,
                         colors={"background": colors[0], "foreground": colors[1]},
                         platforms={"apple": apple, "google": google})
    body["definition"]["config"]["fields"]["primary"][0]["label"] = label
    return body


COLOR = st.from_regex(r"#[0-9a-fA-F]{6}", fullmatch=True)


def _bodies() -> st.SearchStrategy[Any]:
    valid = template_body()
    # Anything at all; an object with the real member names; a valid body with one member
    # replaced by arbitrary JSON or with a definition member replaced; valid bodies with
    # arbitrary text (mostly 201: what is stored must come back as sent).
    return st.one_of(
        JSON,
        st.dictionaries(MEMBERS, JSON, max_size=4),
        st.builds(lambda k, v: {**valid, k: v}, MEMBERS, JSON),
        st.builds(lambda k, v: {**valid, "definition": {**valid["definition"], k: v}},
                  st.sampled_from(sorted(valid["definition"])) | st.text(max_size=12), JSON),
        st.builds(_variant, st.text(min_size=1, max_size=100),
                  st.text(min_size=1, max_size=200), st.text(max_size=64),
                  st.tuples(COLOR, COLOR), st.booleans(), st.booleans()),
    )


ERROR_MEMBERS = {"type", "code", "message", "param", "issues", "issueCount"}


def assert_documented_error(response: Any) -> None:
    body = response.get_json()
    assert set(body) == {"error", "requestId"}, body
    assert body["requestId"] == response.headers["Request-Id"]
    assert body["requestId"].startswith("req_")
    error = body["error"]
    assert {"type", "code", "message"} <= set(error) <= ERROR_MEMBERS, error
    assert error["type"] == "invalid_request_error"
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error.get("param", ""), str)
    if "issues" in error:
        assert error["issueCount"] >= len(error["issues"]) > 0
    for issue in error.get("issues", []):
        assert set(issue) == {"path", "code", "message"}
        assert issue["path"] == "" or issue["path"].startswith("/")


def documented(name: str) -> Draft202012Validator:
    """A validator for one component schema of the served document."""
    document = schema.raw_schema
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                 "components": document["components"]})


TEMPLATE = documented("Template")
ERROR = documented("Error")


@settings(max_examples=150, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=_bodies())
def test_create_template_with_arbitrary_json(api: Api, body: Any) -> None:
    response = api.client.post("/v1/templates", data=json.dumps(body),
                               content_type="application/json",
                               headers=api.headers(method="POST"))
    assert response.status_code in (201, 400), response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    event(f"status {response.status_code}")
    if response.status_code == 400:
        assert_documented_error(response)
        ERROR.validate(response.get_json())
    else:
        created = response.get_json()
        assert created["object"] == "template" and created["revision"] == 1
        assert created["definition"] == body["definition"]
        # What the validator accepted, the documented definition schema accepts too.
        TEMPLATE.validate(created)


# -- hypothesis: arbitrary query strings on the list endpoints -----------------------------

# Text that looks like a number in some script: the digits of every script, superscripts,
# circled and full-width digits, signs and dots.
NUMBERISH = st.text(st.characters(categories=("Nd", "No", "Nl"))
                    | st.sampled_from("0123456789+-. e"), max_size=6)
LISTS = ["/v1/templates", "/v1/passes"]
PARAMS = ["limit", "cursor", "archived", "type", "status", "source", "search", "templateId"]


@settings(max_examples=150, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(path=st.sampled_from(LISTS),
       query=st.dictionaries(st.sampled_from(PARAMS), st.text(max_size=8) | NUMBERISH,
                             max_size=3))
def test_list_query_strings_are_200_or_400(api: Api, path: str, query: dict[str, str]) -> None:
    response = api.get(path, query_string=query)
    assert response.status_code in (200, 400), (query, response.get_data(as_text=True))
    if response.status_code == 400:
        assert_documented_error(response)
        assert response.get_json()["error"]["param"] in query


@pytest.mark.parametrize("limit", ["\u00b2", "\U0001f100", "\u0663", "\uff11"])
def test_limit_in_other_scripts_digits_is_400(api: Api, limit: str) -> None:
    """Found by the query-string property: QueryInteger used str.isdigit(), so "²" and "🄀"
    ended in a 500 (int() refuses them) and "٣" was read as 3."""
    response = api.get("/v1/templates", query_string={"limit": limit})
    assert response.status_code == 400
    assert_documented_error(response)
    assert response.get_json()["error"]["param"] == "limit"


# -- regressions found by the schemathesis run -------------------------------------------

@pytest.mark.parametrize("raw", [b"\x0c", b"\x0b", b" \x0c\n"])
def test_a_body_of_non_json_whitespace_is_not_an_empty_body(api: Api, raw: bytes) -> None:
    """Found by schemathesis: `bytes.strip()` made a form feed an empty (optional) body, so
    duplicate answered 201 to a body that is not JSON."""
    template = api.post("/v1/templates", template_body()).get_json()
    for path in (f"/v1/templates/{template['id']}/duplicate", "/v1/templates"):
        response = api.post(path, data=raw, headers={"Content-Type": "application/json"})
        assert response.status_code == 400, path
        assert_documented_error(response)
        assert response.get_json()["error"]["code"] == "invalid_json"


@pytest.mark.parametrize("raw", [b"", b" \t\r\n"])
def test_an_empty_optional_body_is_still_fine(api: Api, raw: bytes) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    response = api.post(f"/v1/templates/{template['id']}/duplicate", data=raw,
                        headers={"Content-Type": "application/json"})
    assert response.status_code == 201
