"""The OpenAPI document is strict enough to generate good client types (clients/generate.py):
every member typed (the few left open are listed with their reason), and each operation named
and tagged for the generated functions (`passes.issue_pass`)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.test_openapi import _operations


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    return dict(client.get("/v1/openapi.json").get_json())


# Request members whose values the document leaves open, and why: a bulk job's items take the
# shape of its `operation` (described in the member's text, checked per item by the job).
OPEN_REQUEST_MEMBERS = {("BulkJobCreate", "items")}


def test_every_request_member_is_typed(document: dict[str, Any]) -> None:
    """What the generated clients are typed from: no request member without a type."""
    schemas = document["components"]["schemas"]
    bodies = {op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/")[-1]
              for _, _, op in _operations(document) if "requestBody" in op}
    for name in sorted(bodies - {"Definition"}):
        for member, schema in schemas[name]["properties"].items():
            if (name, member) in OPEN_REQUEST_MEMBERS:
                continue
            assert {"type", "$ref", "enum", "const", "oneOf"} & set(schema), (name, member)
            for inner in (schema.get("items"), schema.get("additionalProperties")):
                assert inner is None or inner is False or set(inner) & {
                    "type", "$ref", "enum", "oneOf"}, (name, member, inner)
    values = schemas["PassCreate"]["properties"]["fieldValues"]["additionalProperties"]
    assert values == {"type": ["string", "number"]}
    update = schemas["PassUpdateBody"]["properties"]["fieldValues"]["additionalProperties"]
    assert update == {"type": ["string", "number", "null"]}


def test_every_operation_has_a_tag_and_a_plain_operation_id(document: dict[str, Any]) -> None:
    """The generated clients name their functions after these (passes.issue_pass)."""
    for path, method, op in _operations(document):
        assert len(op["tags"]) == 1 and re.fullmatch(r"[a-z_]+", op["tags"][0]), (method, path)
        assert re.fullmatch(r"[a-z_]+", op["operationId"]), (method, path)
    assert document["paths"]["/v1/passes"]["post"]["operationId"] == "issue_pass"
    assert document["paths"]["/v1/passes"]["post"]["tags"] == ["passes"]


# Members whose values the document leaves open (no type, or an object of anything), and why.
# A new one fails test_every_member_is_typed: type it, or add it here with its reason.
OPEN_MEMBERS = {
    # the items of a bulk job take the shape of its `operation` (described in its text)
    "BulkJobCreate.items[]",
    # dashboard helpers; interface.md: "their shapes: not shown"
    "Pass.editableFields[]", "Pass.preview",
    # the resource the event is about: a pass, a pass update, an email or an endpoint
    "Event.data",
    # the holder's data export: stored records as they were kept
    "PassExport.activity[]", "Installations.apple[]", "Installations.google",
}


def _open_members(document: dict[str, Any]) -> set[str]:
    """Every member (of every component, nested too) with no type: `Name.member.inner[]`."""
    found: set[str] = set()
    typed = {"type", "$ref", "enum", "const", "oneOf", "anyOf", "allOf", "properties"}

    def visit(schema: Any, where: str) -> None:
        if not isinstance(schema, dict):
            return
        kinds = schema.get("type", [])
        if not typed & set(schema) or ("object" in kinds and schema.get(
                "additionalProperties") == {} and "properties" not in schema):
            found.add(where)
        for member, inner in schema.get("properties", {}).items():
            visit(inner, f"{where}.{member}")
        visit(schema.get("items"), f"{where}[]")
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            visit(extra, f"{where}{{}}")
        for inner in schema.get("oneOf", []):
            visit(inner, where)

    for name, component in document["components"]["schemas"].items():
        if name not in ("Definition", "Tier", "Translation", "Field"):  # JSON Schema v1
            visit(component, name)
    return found


def test_every_member_is_typed(document: dict[str, Any]) -> None:
    """The generated clients' types are only as good as these: no member left open by
    accident (request bodies, answers and errors alike)."""
    assert _open_members(document) == OPEN_MEMBERS


def test_nullable_enums_are_one_of_an_enum_or_null(document: dict[str, Any]) -> None:
    """`{"oneOf": [{"type": "string", "enum": [...]}, {"type": "null"}]}`, not null inside an
    enum: openapi-python-client makes one type of the first and three copies of the second."""
    text = json.dumps(document)
    assert not re.search(r'"enum": \[[^\]]*null', text)
    reason = document["components"]["schemas"]["WebhookEndpoint"]["properties"][
        "disabledReason"]
    assert reason["oneOf"] == [{"type": "string", "enum": ["manual", "failing"]},
                               {"type": "null"}]


def test_a_resource_nested_in_an_answer_is_its_own_component(document: dict[str, Any]) -> None:
    """A generated client then has one `Pass` model, not one more per place a pass is nested."""
    schemas = document["components"]["schemas"]
    for nested, name in ((schemas["BalanceTransactionResult"]["properties"]["pass"], "Pass"),
                         (schemas["PassWithUpdate"]["properties"]["update"], "PassUpdate"),
                         (schemas["PassExport"]["properties"]["updates"]["items"], "PassUpdate"),
                         (schemas["Error"]["properties"]["error"], "ErrorDetail")):
        assert nested["$ref"] == f"#/components/schemas/{name}"
