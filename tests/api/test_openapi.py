"""`GET /v1/openapi.json`: a valid OpenAPI 3.1 document that describes every /v1 route."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from tests.api.factories import definition, template_body
from tests.conftest import Api

WRITES = {"post", "put", "patch", "delete"}


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.get_json()


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, ops in document["paths"].items()
            for method, op in ops.items()]


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = document
        for part in schema["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def _validator(document: dict[str, Any], name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                 "components": document["components"]})


def test_the_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1")
    validate(document)  # raises on any violation of the OpenAPI 3.1 schema


def test_the_document_needs_no_key(client: FlaskClient) -> None:
    response = client.get("/v1/openapi.json", headers={"Authorization": "Bearer nope"})
    assert response.status_code == 200
    assert response.headers["Request-Id"].startswith("req_")


def test_every_v1_route_and_method_is_documented(app: Flask, document: dict[str, Any]) -> None:
    routes = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/v1/") or rule.endpoint == "api.openapi":
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            routes.add((path, method.lower()))
    documented = {(path, method) for path, method, _ in _operations(document)}
    assert routes, "no /v1 routes found"
    assert routes - documented == set(), "routes missing from /v1/openapi.json"
    assert documented - routes == set(), "documented operations without a route"
    assert "/v1/openapi.json" not in document["paths"]


def test_operation_ids_are_unique(document: dict[str, Any]) -> None:
    ids = [op["operationId"] for _, _, op in _operations(document)]
    assert len(ids) == len(set(ids))


def test_path_parameters_match_the_path(document: dict[str, Any]) -> None:
    for path, method, op in _operations(document):
        in_path = set(re.findall(r"{([^}]+)}", path))
        declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
        assert in_path == declared, (method, path)


def test_every_write_requires_an_idempotency_key(document: dict[str, Any]) -> None:
    for path, method, op in _operations(document):
        keys = [p for p in op.get("parameters", [])
                if p["in"] == "header" and p["name"] == "Idempotency-Key"]
        if method in WRITES:
            assert len(keys) == 1, (method, path)
            assert keys[0]["required"] is True
            assert keys[0]["schema"]["maxLength"] == 255
        else:
            assert keys == [], (method, path)


def test_every_operation_is_authenticated(document: dict[str, Any]) -> None:
    assert document["components"]["securitySchemes"]["bearer"] == {
        "type": "http", "scheme": "bearer"}
    for path, method, op in _operations(document):
        assert op["security"] == [{"bearer": []}], (method, path)


def test_success_codes_follow_the_spec(document: dict[str, Any]) -> None:
    """Create-type: 201; read, update and delete-type: 200; link revocation: 204; sending
    by email, creating a bulk job and sending a message (queued, run by a job): 202."""
    for path, method, op in _operations(document):
        success = {code for code in op["responses"] if code.startswith("2")}
        assert len(success) == 1, (method, path)
        code = success.pop()
        if method == "delete" and path.startswith("/v1/download-links/"):
            assert code == "204"
            assert "content" not in op["responses"][code]
        elif path in ("/v1/passes/{pass_id}/send", "/v1/bulk-jobs", "/v1/messages") \
                and method == "post":
            assert code == "202"
        elif method in ("get", "patch", "delete"):
            assert code == "200", (method, path)
        else:
            assert code in ("200", "201"), (method, path)
    assert "201" in document["paths"]["/v1/templates"]["post"]["responses"]
    assert "201" in document["paths"]["/v1/assets"]["post"]["responses"]
    assert "201" in document["paths"]["/v1/templates/{template_id}/duplicate"]["post"][
        "responses"]


def test_errors_reference_the_error_schema(document: dict[str, Any]) -> None:
    for path, method, op in _operations(document):
        codes = set(op["responses"])
        assert {"400", "401", "429", "500"} <= codes, (method, path)
        if "{" in path:
            assert "404" in codes, (method, path)
        if method in WRITES:
            assert {"409", "413"} <= codes, (method, path)
        for code, response in op["responses"].items():
            assert response["headers"]["Request-Id"] == {
                "$ref": "#/components/headers/Request-Id"}
            if code.startswith(("4", "5")):  # (some with an example body)
                assert set(response["content"]) == {"application/json"}
                assert response["content"]["application/json"]["schema"] == {
                    "$ref": "#/components/schemas/Error"}, (method, path, code)


def test_the_error_schema_is_the_documented_envelope(document: dict[str, Any]) -> None:
    error = document["components"]["schemas"]["Error"]
    assert error["required"] == ["error", "requestId"]
    assert error["additionalProperties"] is False
    detail = _resolve(document, error["properties"]["error"])
    assert set(detail["properties"]) == {"type", "code", "message", "param", "issues",
                                        "issueCount", "passId", "redemption", "balance"}
    assert detail["required"] == ["message"]
    assert detail["additionalProperties"] is False
    issue = _resolve(document, detail["properties"]["issues"]["items"])
    assert sorted(issue["required"]) == ["code", "message", "path"]


def test_request_bodies_reject_unknown_members(document: dict[str, Any]) -> None:
    bodies = 0
    for path, method, op in _operations(document):
        if "requestBody" not in op:
            continue
        bodies += 1
        schema = _resolve(document, op["requestBody"]["content"]["application/json"]["schema"])
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False, (method, path)
    assert bodies >= 4


def test_an_undeclared_body_member_is_really_rejected(api: Api) -> None:
    """What `additionalProperties: false` promises, the API does."""
    body = {**template_body(), "colour": "red"}
    response = api.post("/v1/templates", body)
    assert response.status_code == 400
    assert response.get_json()["error"]["param"] == "colour"


def test_list_operations_document_the_envelope(document: dict[str, Any]) -> None:
    op = document["paths"]["/v1/templates"]["get"]
    envelope = op["responses"]["200"]["content"]["application/json"]["schema"]
    assert envelope["required"] == ["object", "data", "hasMore", "nextCursor"]
    assert envelope["properties"]["nextCursor"]["type"] == ["string", "null"]
    assert envelope["additionalProperties"] is False
    limit = next(p for p in op["parameters"] if p["name"] == "limit")
    assert (limit["schema"]["minimum"], limit["schema"]["maximum"]) == (1, 100)


def test_template_schema_states_what_is_always_there(document: dict[str, Any]) -> None:
    template = document["components"]["schemas"]["Template"]
    assert "definition" in template["properties"]
    assert "definition" not in template["required"]  # omitted from list results
    assert {"id", "object", "revision", "requiredFields", "settings"} <= set(template["required"])
    settings = _resolve(document, template["properties"]["settings"])
    assert settings["properties"]["appleCertificateId"]["type"] == ["string", "null"]
    assert template["properties"]["type"]["enum"] == ["generic", "event_ticket", "loyalty",
                                                      "gift_card", "coupon"]


def test_duplicate_body_is_optional(document: dict[str, Any], api: Api) -> None:
    op = document["paths"]["/v1/templates/{template_id}/duplicate"]["post"]
    assert op["requestBody"]["required"] is False
    assert document["paths"]["/v1/templates"]["post"]["requestBody"]["required"] is True
    created = api.post("/v1/templates", template_body()).get_json()
    response = api.post(f"/v1/templates/{created['id']}/duplicate")
    assert response.status_code == 201


def test_definition_schema_v1_is_documented(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for name in ("TemplateCreate", "TemplateUpdate", "Template"):
        assert schemas[name]["properties"]["definition"]["$ref"] == (
            "#/components/schemas/Definition")
    check = _validator(document, "Definition")
    for kind in ("generic", "event"):
        assert list(check.iter_errors(definition(kind))) == []
    # What it can say, it says: a missing member, a bad colour, an unknown member, no platform.
    bad = definition()
    del bad["organizationName"]
    bad["colors"]["background"] = "red"
    bad["platforms"] = {"apple": False, "google": False}
    bad["surprise"] = True
    assert len(list(check.iter_errors(bad))) >= 3
    assert not check.is_valid(definition(event={"name": "x"}))  # event on a generic template


def test_definition_schema_shows_the_event_ticket_members(document: dict[str, Any]) -> None:
    check = _validator(document, "Definition")
    event = definition("event")["event"]
    full = definition("event", event={
        **event, "category": "movie", "seatFields": {"number": "seat"},
        "venue": {"name": "Hall", "location": {"latitude": 52.5, "longitude": 13.4}}})
    assert list(check.iter_errors(full)) == []
    for bad in ({**event, "category": "concert"}, {**event, "seatFields": {"aisle": "seat"}},
                {**event, "venue": {"name": "Hall", "location": {"latitude": 91,
                                                                 "longitude": 0}}}):
        assert not check.is_valid(definition("event", event=bad)), bad
    assert not check.is_valid(definition(images={"footer": "asset_1"}))
    props = document["components"]["schemas"]["Definition"]["properties"]
    assert "footer" not in props["images"]["propertyNames"]["enum"]
    assert set(props["event"]["properties"]["seatFields"]["properties"]) == {
        "section", "row", "number", "gate"}


def test_real_answers_match_the_documented_schemas(document: dict[str, Any], api: Api,
                                                   png: Any) -> None:
    asset = api.post("/v1/assets", {"slot": "icon", "data": png()})
    _validator(document, "Asset").validate(asset.get_json())
    images = {"icon": asset.get_json()["id"]}
    for kind in ("generic", "event"):
        created = api.post("/v1/templates", template_body(kind, images=images))
        assert created.status_code == 201, created.get_data(as_text=True)
        _validator(document, "Template").validate(created.get_json())
    listed = api.get("/v1/templates").get_json()
    envelope = document["paths"]["/v1/templates"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]
    Draft202012Validator({**envelope, "components": document["components"]}).validate(listed)
    assert all("definition" not in item for item in listed["data"])
    error = api.post("/v1/templates", {"name": "x", "type": "generic", "definition": {}})
    _validator(document, "Error").validate(error.get_json())
    assert error.get_json()["error"]["issues"]


def test_definition_schema_shows_the_store_types_members(document: dict[str, Any]) -> None:
    from tests.api.factories import coupon_definition, gift_card_definition, loyalty_definition

    check = _validator(document, "Definition")
    for good in (loyalty_definition("asset_1"), gift_card_definition(), coupon_definition()):
        assert list(check.iter_errors(good)) == [], good["type"]
    for bad in (gift_card_definition("eur"), {**coupon_definition(), "giftCard": {
            "currency": "EUR"}}, {**gift_card_definition(), "giftCard": None},
            loyalty_definition("asset_1", loyalty={"programName": "X", "tiers": []})):
        assert not check.is_valid(bad), bad
    missing = gift_card_definition()
    del missing["giftCard"]
    assert not check.is_valid(missing)


def test_balance_answers_match_the_documented_schemas(document: dict[str, Any], api: Api
                                                      ) -> None:
    from tests.api.factories import gift_card_definition, store_body

    template = api.post("/v1/templates", store_body(gift_card_definition())).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"], "balance": 500}).get_json()
    _validator(document, "Pass").validate(item)
    moved = api.post(f"/v1/passes/{item['id']}/balance-transactions", {"amount": -200})
    assert moved.status_code == 201
    _validator(document, "BalanceTransactionResult").validate(moved.get_json())
    listed = api.get(f"/v1/passes/{item['id']}/balance-transactions").get_json()
    operation = document["paths"]["/v1/passes/{pass_id}/balance-transactions"]
    envelope = operation["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    Draft202012Validator({**envelope, "components": document["components"]}).validate(listed)
    refused = api.post(f"/v1/passes/{item['id']}/balance-transactions", {"amount": -301})
    _validator(document, "Error").validate(refused.get_json())
    assert operation["post"]["responses"]["409"]["content"]["application/json"]["example"][
        "error"]["code"] == "insufficient_balance"


def test_the_document_has_the_balances(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    operation = document["paths"]["/v1/passes/{pass_id}/balance-transactions"]
    assert set(operation) == {"get", "post"}
    assert operation["post"]["x-permission"] == "passes:write"
    assert {"loyalty", "giftCard", "offer"} <= set(schemas["Definition"]["properties"])
    assert {"balance", "lifetimePoints", "tier"} <= set(schemas["Pass"]["required"])
    assert "balance" in schemas["PassCreate"]["properties"]
    assert "adjust_balance" in schemas["BulkJobCreate"]["properties"]["operation"]["enum"]
    assert {"pass.balance_changed", "pass.tier_changed"} <= set(
        schemas["Event"]["properties"]["type"]["enum"])
    totals = _resolve(document, schemas["Insights"]["properties"]["totals"])
    assert "balanceChanges" in totals["properties"]
