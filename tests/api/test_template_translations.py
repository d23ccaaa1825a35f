"""Translations through the API: accepted, refused with issues, a new revision when they
change, and documented in the OpenAPI definition schema."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from tests.api.factories import definition, template_body
from tests.conftest import Api, assert_error

GERMAN = {"description": "Mitgliedschaft", "fields": {"member": {"label": "Mitglied"},
                                                      "club": {"value": "Innenstadt"}}}


def test_create_and_read_back_translations(api: Api) -> None:
    body = template_body(defaultLanguage="en", translations={"de": GERMAN})
    created = api.post("/v1/templates", body)
    assert created.status_code == 201, created.get_json()
    got = api.get(f"/v1/templates/{created.get_json()['id']}").get_json()
    assert got["definition"]["translations"] == {"de": GERMAN}
    assert got["definition"]["defaultLanguage"] == "en"


def test_bad_translations_are_listed_as_issues(api: Api) -> None:
    body = template_body(translations={"de-de": {}, "fr": {"fields": {"member": {
        "value": "x"}}, "slogan": "x"}})
    error = assert_error(api.post("/v1/templates", body), 400, "invalid_request_error",
                         "invalid_definition", "definition")
    assert [(i["path"], i["code"]) for i in error["issues"]] == [
        ("/translations/de-de", "invalid_key"),
        ("/translations/fr/fields/member/value", "not_allowed"),  # in document order
        ("/translations/fr/slogan", "unknown_member")]


def test_a_changed_translation_is_a_new_revision(api: Api) -> None:
    created = api.post("/v1/templates", template_body(translations={"de": GERMAN})).get_json()
    changed = definition(translations={"de": {**GERMAN, "description": "Mitgliedskarte"}})
    updated = api.patch(f"/v1/templates/{created['id']}",
                        {"expectedRevision": 1, "definition": changed})
    assert updated.status_code == 200, updated.get_json()
    assert updated.get_json()["revision"] == 2


def test_the_openapi_document_shows_translations(client: Any) -> None:
    document = client.get("/v1/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    members = schemas["Definition"]["properties"]
    assert members["translations"]["additionalProperties"] == {
        "$ref": "#/components/schemas/Translation"}
    assert set(schemas["Translation"]["properties"]) == {
        "organizationName", "description", "logoText", "fields", "event"}
    check = Draft202012Validator({"$ref": "#/components/schemas/Definition",
                                  "components": document["components"]})
    assert list(check.iter_errors(definition(defaultLanguage="de-CH",
                                             translations={"fr-CA": GERMAN}))) == []
    assert not check.is_valid(definition(translations={"de_DE": {}}))
    assert not check.is_valid(definition(translations={"de": {"slogan": "x"}}))
    assert not check.is_valid(definition(defaultLanguage="german"))
