"""Text that is not Unicode scalar values, or holds control characters, is refused at the
edge with a 400 naming the member (issue 22, item 2).

A lone surrogate used to be a 500 (or, on SQLite, stored and then a 500 on every page that
showed it)."""

from __future__ import annotations

import pytest

from tests.api.factories import template_body
from tests.conftest import Api, assert_error
from tests.dashboard.conftest import sign_in
from webapp.domain.text import printable, problem

SURROGATE = "\udfff"
BELL = "\u0007"


@pytest.fixture
def template(api: Api) -> dict:
    response = api.post("/v1/templates", template_body())
    assert response.status_code == 201
    return response.get_json()


@pytest.mark.parametrize(("value", "expected"), [
    ("Ada Lovelace", None), ("Müller 🎟", None), ("line\nbreak\ttab\r", None),
    ("\udfff", "contains U+DFFF, half of a UTF-16 surrogate pair, which is not a Unicode "
               "character"),
    ("a\ud83c", "contains U+D83C, half of a UTF-16 surrogate pair, which is not a Unicode "
                "character"),
    ("\x00", "contains the control character U+0000, which wallets cannot show"),
    ("x\x1by", "contains the control character U+001B, which wallets cannot show"),
    ("\x7f", "contains the control character U+007F, which wallets cannot show"),
    ("\x85", "contains the control character U+0085, which wallets cannot show"),
])
def test_problem(value: str, expected: str | None) -> None:
    assert problem(value) == expected


def test_printable_replaces_what_problem_names() -> None:
    assert printable("a\udfffb\x01c\n") == "a\ufffdb\ufffdc\n"


@pytest.mark.parametrize("bad", [SURROGATE, BELL])
@pytest.mark.parametrize(("member", "param"), [
    ("holderName", "holderName"), ("holderEmail", "holderEmail"),
    ("barcodeValue", "barcodeValue"), ("fieldValues", "fieldValues.member"),
])
def test_issue_refuses_malformed_text(api: Api, template: dict, bad: str, member: str,
                                      param: str) -> None:
    body: dict = {"templateId": template["id"], "fieldValues": {"member": "Ada"}}
    if member == "fieldValues":
        body["fieldValues"] = {"member": f"Ada{bad}"}
    else:
        body[member] = f"x{bad}"
    error = assert_error(api.post("/v1/passes", body), 400, "invalid_request_error",
                         "parameter_invalid", param)
    assert error["message"] == f"{param} {problem(bad)}."
    listed = api.get("/v1/passes").get_json()
    assert listed["data"] == []


def test_a_malformed_member_name_is_shown_safely(api: Api, template: dict) -> None:
    body = {"templateId": template["id"], "fieldValues": {"member": "Ada", f"k{SURROGATE}": 1}}
    error = assert_error(api.post("/v1/passes", body), 400, "invalid_request_error",
                         "parameter_invalid", "fieldValues.k\ufffd")
    assert error["message"] == f"fieldValues.k\ufffd {problem(SURROGATE)}."


@pytest.mark.parametrize("bad", [SURROGATE, BELL])
def test_template_name_and_definition_refuse_malformed_text(api: Api, bad: str) -> None:
    assert_error(api.post("/v1/templates", template_body(name=f"Gym{bad}")), 400,
                 "invalid_request_error", "parameter_invalid", "name")
    body = template_body()
    body["definition"]["config"]["fields"]["primary"][0]["label"] = f"Mem{bad}"
    assert_error(api.post("/v1/templates", body), 400, "invalid_request_error",
                 "parameter_invalid", "definition.config.fields.primary.0.label")
    assert api.get("/v1/templates").get_json()["data"] == []


def test_update_refuses_malformed_text(api: Api, template: dict) -> None:
    created = api.post("/v1/passes", {"templateId": template["id"],
                                      "fieldValues": {"member": "Ada"}}).get_json()
    assert_error(api.patch(f"/v1/passes/{created['id']}",
                           {"fieldValues": {"level": SURROGATE}}),
                 400, "invalid_request_error", "parameter_invalid", "fieldValues.level")
    again = api.get(f"/v1/passes/{created['id']}").get_json()
    assert again["fieldValues"] == {"member": "Ada"}
    assert api.client.get(f"/p/{created['shortId']}").status_code == 200


def test_query_strings_refuse_control_characters(api: Api) -> None:
    assert_error(api.get("/v1/passes?holderEmail=a%01b"), 400, "invalid_request_error",
                 "parameter_invalid", "holderEmail")


def test_text_with_line_breaks_and_accents_is_kept(api: Api, template: dict) -> None:
    response = api.post("/v1/passes", {"templateId": template["id"], "holderName": "Zoë Müller",
                                       "fieldValues": {"member": "Zoë\nMüller"}})
    assert response.status_code == 201
    assert response.get_json()["fieldValues"]["member"] == "Zoë\nMüller"


def test_dashboard_forms_refuse_control_characters(client, org: dict) -> None:
    dash = sign_in(client, org["email"], org["password"])
    response = dash.post("/dashboard/test/templates/new",
                         {"name": f"Gym{BELL}", "type": "generic"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "The input name contains the control character U+0007" in page
    assert "Gym" not in dash.get("/dashboard/test/templates").get_data(as_text=True)
