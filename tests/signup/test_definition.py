"""The definition member `enrollment`, the template's `enrollmentUrl` and replacing it
(`POST /v1/templates/<id>/enrollment-link`)."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.factories import template_body
from tests.conftest import BASE_URL, Api, assert_error
from tests.signup.conftest import ENROLLMENT, path_of, signup_template

_URL = re.compile(re.escape(BASE_URL) + r"/join/[A-Za-z0-9_-]{10,}$")


def _issues(api: Api, enrollment: Any, **changes: Any) -> list[tuple[str, str]]:
    response = api.post("/v1/templates", template_body(enrollment=enrollment, **changes))
    error = assert_error(response, 400, "invalid_request_error", "invalid_definition",
                         "definition")
    return [(issue["path"], issue["code"]) for issue in error["issues"]]


def _with(**changes: Any) -> dict[str, Any]:
    value = copy.deepcopy(ENROLLMENT)
    value.update(changes)
    return value


@pytest.mark.parametrize(("enrollment", "expected"), [
    ("yes", [("/enrollment", "invalid_type")]),
    ({}, [("/enrollment/enabled", "required"), ("/enrollment/fields", "required")]),
    (_with(colour="red"), [("/enrollment/colour", "unknown_member")]),
    (_with(enabled="true"), [("/enrollment/enabled", "invalid_type")]),
    (_with(consent=""), [("/enrollment/consent", "too_short")]),
    (_with(consent="x" * 501), [("/enrollment/consent", "too_long")]),
    (_with(fields="holderEmail"), [("/enrollment/fields", "invalid_type")]),
    (_with(fields=[{"key": "holderEmail", "required": True}, {"key": "member",
                                                               "required": True},
                   {"key": "holderEmail"}]),
     [("/enrollment/fields/2/key", "duplicate_key")]),
    (_with(fields=[{"key": "holderEmail", "required": True}, {"key": "member",
                                                               "required": True},
                   {"key": "club"}]),  # a shared field: a visitor cannot set it
     [("/enrollment/fields/2/key", "unknown_field")]),
    (_with(fields=[{"key": "holderEmail", "required": True}, {"key": "member",
                                                               "required": True},
                   {"key": "nickname", "required": False, "hint": "x"}]),
     [("/enrollment/fields/2/key", "unknown_field"),  # document order
      ("/enrollment/fields/2/hint", "unknown_member")]),
    (_with(fields=[{"key": "holderEmail", "required": "yes"}, {"key": "member",
                                                                "required": True}]),
     [("/enrollment/fields", "required"), ("/enrollment/fields/0/required", "invalid_type")]),
    (_with(fields=[{"key": "member", "required": True}]), [("/enrollment/fields", "required")]),
    (_with(fields=[{"key": "holderEmail", "required": True}]),  # member is required
     [("/enrollment/fields", "required")]),
    (_with(fields=[{"key": "holderEmail", "required": True}, {"key": "member",
                                                               "required": True}] * 7),
     None),
])
def test_enrollment_problems_are_definition_issues(api: Api, enrollment: Any,
                                                   expected: list | None) -> None:
    found = _issues(api, enrollment)
    if expected is None:  # 14 fields: too many, and duplicates
        assert ("/enrollment/fields", "too_many") in found
    else:
        assert found == expected


def test_a_per_pass_barcode_cannot_open_sign_ups(api: Api) -> None:
    found = _issues(api, ENROLLMENT, barcode={"format": "qr", "perPass": True})
    assert found == [("/enrollment/enabled", "not_allowed")]


def test_enrollment_url_per_environment_and_null_when_off(api: Api, live_api: Api) -> None:
    template = signup_template(api)
    assert _URL.match(template["enrollmentUrl"])
    live = live_api.get(f"/v1/templates/{template['id']}").get_json()
    assert _URL.match(live["enrollmentUrl"]) and live["enrollmentUrl"] != template[
        "enrollmentUrl"]
    listed = api.get("/v1/templates").get_json()["data"]
    assert [t["enrollmentUrl"] for t in listed] == [template["enrollmentUrl"]]
    plain = api.post("/v1/templates", template_body()).get_json()
    assert plain["enrollmentUrl"] is None
    off = api.patch(f"/v1/templates/{template['id']}", {
        "expectedRevision": 1,
        "definition": {**template["definition"], "enrollment": _with(enabled=False)}})
    assert off.status_code == 200 and off.get_json()["enrollmentUrl"] is None
    on = api.patch(f"/v1/templates/{template['id']}", {
        "expectedRevision": 2, "definition": template["definition"]})
    assert on.get_json()["enrollmentUrl"] == template["enrollmentUrl"]  # the same link again


def test_new_link_replaces_the_old_one(api: Api, client: FlaskClient) -> None:
    template = signup_template(api)
    old = path_of(template)
    response = api.post(f"/v1/templates/{template['id']}/enrollment-link", idem="link-1")
    assert response.status_code == 200
    body = response.get_json()
    assert _URL.match(body["enrollmentUrl"]) and body["enrollmentUrl"] != template[
        "enrollmentUrl"]
    replay = api.post(f"/v1/templates/{template['id']}/enrollment-link", idem="link-1")
    assert replay.get_data() == response.get_data()  # a replay makes no third link
    assert client.get(old).status_code == 410
    assert client.get(path_of(body)).status_code == 200
    assert api.get(f"/v1/templates/{template['id']}").get_json()["enrollmentUrl"] == body[
        "enrollmentUrl"]


def test_new_link_refusals(api: Api, other_api: Api) -> None:
    template = signup_template(api)
    assert_error(other_api.post(f"/v1/templates/{template['id']}/enrollment-link"), 404,
                 "not_found_error")
    plain = api.post("/v1/templates", template_body()).get_json()
    assert_error(api.post(f"/v1/templates/{plain['id']}/enrollment-link"), 409,
                 "conflict_error", "enrollment_disabled")
    api.delete(f"/v1/templates/{template['id']}")
    assert_error(api.post(f"/v1/templates/{template['id']}/enrollment-link"), 409,
                 "conflict_error", "template_archived")


def test_duplicate_gets_its_own_link(api: Api) -> None:
    template = signup_template(api)
    copy_ = api.post(f"/v1/templates/{template['id']}/duplicate", {}).get_json()
    assert _URL.match(copy_["enrollmentUrl"])
    assert copy_["enrollmentUrl"] != template["enrollmentUrl"]
