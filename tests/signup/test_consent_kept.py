"""The consent a holder gave on a sign-up page is kept with their sign-up, as the page showed
it and when, and their export (`GET /v1/passes/<id>/export`) shows it: a later change of the
template's sentence does not rewrite what they agreed to."""

from __future__ import annotations

import copy
import re
from typing import Any

from flask import Flask

from tests.conftest import Api
from tests.signup.conftest import ENROLLMENT, Visitor, path_of, signup_template
from tests.support.openapi import component_validator

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def _change_consent(api: Api, template: dict[str, Any], sentence: str) -> None:
    """The template's sign-up now asks to tick `sentence` (its first revision replaced)."""
    changed = {**copy.deepcopy(ENROLLMENT), "consent": sentence}
    assert api.patch(f"/v1/templates/{template['id']}", {
        "expectedRevision": 1,
        "definition": {**template["definition"], "enrollment": changed}}).status_code == 200


def _only_pass(api: Api) -> dict[str, Any]:
    [item] = api.get("/v1/passes").get_json()["data"]
    return dict(item)


def test_the_export_shows_the_sentence_ticked_and_when(api: Api, visitor: Visitor,
                                                        template: dict[str, Any]) -> None:
    assert visitor.submit().status_code == 303
    item = _only_pass(api)
    _change_consent(api, template, "I agree to the new rules.")
    found = api.get(f"/v1/passes/{item['id']}/export")
    assert found.status_code == 200
    body = found.get_json()
    component_validator(api, "PassExport").validate(body)
    assert body["enrollment"]["consent"] == "I agree to the club's rules."
    assert _ISO.match(body["enrollment"]["consentedAt"])
    assert body["enrollment"]["consentedAt"] >= item["createdAt"][:19]


def test_a_page_without_a_consent_box_keeps_none(api: Api, app: Flask) -> None:
    enrollment = {key: value for key, value in ENROLLMENT.items() if key != "consent"}
    visitor = Visitor(app.test_client(), path_of(signup_template(api, enrollment)))
    assert visitor.submit(consent=None).status_code == 303  # type: ignore[arg-type]
    body = api.get(f"/v1/passes/{_only_pass(api)['id']}/export").get_json()
    assert body["enrollment"] == {"consent": None, "consentedAt": None}


def test_a_pass_issued_through_the_api_has_no_sign_up(api: Api,
                                                      template: dict[str, Any]) -> None:
    issued = api.post("/v1/passes", {"templateId": template["id"],
                                     "fieldValues": {"member": "Ada"}})
    assert issued.status_code == 201
    body = api.get(f"/v1/passes/{issued.get_json()['id']}/export").get_json()
    assert body["enrollment"] is None


def test_signing_up_again_after_a_void_keeps_the_new_passes_consent(
        api: Api, visitor: Visitor, template: dict[str, Any]) -> None:
    visitor.submit()
    first = _only_pass(api)
    api.delete(f"/v1/passes/{first['id']}")
    _change_consent(api, template, "I agree to the new rules.")
    assert visitor.submit().status_code == 303
    second = next(p for p in api.get("/v1/passes").get_json()["data"] if p["id"] != first["id"])
    body = api.get(f"/v1/passes/{second['id']}/export").get_json()
    assert body["enrollment"]["consent"] == "I agree to the new rules."


def test_an_erased_holders_sign_up_is_gone_from_the_export(api: Api, visitor: Visitor) -> None:
    visitor.submit()
    item = _only_pass(api)
    assert api.post(f"/v1/passes/{item['id']}/erase").status_code == 200
    assert api.get(f"/v1/passes/{item['id']}/export").get_json()["enrollment"] is None
