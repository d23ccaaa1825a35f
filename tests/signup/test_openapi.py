"""/v1/openapi.json describes sign-up pages: the definition member `enrollment`, the
template's `enrollmentUrl`, the operation that replaces it, the pass source `enrollment`
and the funnel's counts; real answers validate against it."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.test_openapi import _validator, document  # noqa: F401  (fixture)
from tests.conftest import Api
from tests.signup.conftest import ENROLLMENT, Visitor, path_of, signup_template


def test_the_definition_member_is_described(document: dict[str, Any]) -> None:  # noqa: F811
    member = document["components"]["schemas"]["Definition"]["properties"]["enrollment"]
    assert member["required"] == ["enabled", "fields"]
    assert member["additionalProperties"] is False
    assert member["properties"]["enabled"] == {"type": "boolean", "description": member[
        "properties"]["enabled"]["description"]}
    assert member["properties"]["fields"]["maxItems"] == 12
    item = member["properties"]["fields"]["items"]
    assert item["required"] == ["key"] and set(item["properties"]) == {"key", "required"}
    assert member["properties"]["consent"]["maxLength"] == 500
    check = _validator(document, "Definition")
    from tests.api.factories import definition

    assert not list(check.iter_errors(definition(enrollment=ENROLLMENT)))
    assert list(check.iter_errors(definition(enrollment={**ENROLLMENT, "open": True})))


def test_the_operation_and_members_are_described(document: dict[str, Any]) -> None:  # noqa: F811
    op = document["paths"]["/v1/templates/{template_id}/enrollment-link"]["post"]
    assert {"200", "404", "409"} <= set(op["responses"])
    template = document["components"]["schemas"]["Template"]
    assert "enrollmentUrl" in template["required"]
    url = template["properties"]["enrollmentUrl"]
    assert url["type"] == ["string", "null"] and url["format"] == "uri"
    schemas = document["components"]["schemas"]
    assert "enrollment" in str(schemas["Pass"]["properties"]["source"]["enum"])
    totals = schemas[schemas["Insights"]["properties"]["totals"]["$ref"].rsplit("/", 1)[1]]
    assert {"signupPageViews", "signups", "signupsAdded"} <= set(totals["properties"])


def test_answers_validate(document: dict[str, Any], api: Api,  # noqa: F811
                          client: FlaskClient) -> None:
    template = signup_template(api)
    assert not list(_validator(document, "Template").iter_errors(template))
    replaced = api.post(f"/v1/templates/{template['id']}/enrollment-link").get_json()
    assert not list(_validator(document, "Template").iter_errors(replaced))
    Visitor(client, path_of(replaced)).submit()
    item = api.get("/v1/passes?source=enrollment").get_json()["data"][0]
    assert not list(_validator(document, "Pass").iter_errors(item))
    insights = api.get("/v1/insights").get_json()
    assert not list(_validator(document, "Insights").iter_errors(insights))
