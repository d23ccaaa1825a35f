"""The OpenAPI document's promises, checked against answers."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator


def component_validator(api: Any, name: str) -> Draft202012Validator:
    """A validator for the schema `name` of the served /v1/openapi.json (`api`: the tests'
    API client)."""
    document = api.client.get("/v1/openapi.json").get_json()
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                 "components": document["components"]})
