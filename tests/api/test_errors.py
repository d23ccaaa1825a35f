"""The error envelope, Request-Id, 404/405/500 and body parsing (decisions.md section 1)."""

from __future__ import annotations

import pytest

from tests.conftest import Api, assert_error


def test_every_response_has_a_request_id(api: Api, client) -> None:
    ok = api.get("/v1/me")
    assert ok.headers["Request-Id"].startswith("req_")
    other = api.get("/v1/me")
    assert other.headers["Request-Id"] != ok.headers["Request-Id"]
    assert client.get("/v1/openapi.json").headers["Request-Id"].startswith("req_")


def test_unknown_route_is_404_not_found_error(api: Api) -> None:
    assert_error(api.get("/v1/nothing-here"), 404, "not_found_error")
    assert_error(api.get("/v1/templates/tmpl_x/nope"), 404, "not_found_error")


def test_unknown_route_without_key_is_still_404(client) -> None:
    # Routing fails before any view: there is no resource whose existence a 401 would hide.
    assert_error(client.get("/v1/nothing-here"), 404, "not_found_error")


def test_wrong_method_is_405_invalid_request_error(api: Api) -> None:
    response = api.request("PUT", "/v1/templates")
    assert_error(response, 405, "invalid_request_error", "method_not_allowed")
    assert "POST" in response.headers["Allow"]
    assert_error(api.request("PUT", "/v1/me"), 405, "invalid_request_error")


@pytest.mark.parametrize("data", ["not json", "[1, 2]", '"text"', "42", "null", '{"a": NaN}',
                                  "{", "\xff\xfe"])
def test_body_that_is_not_a_json_object_is_400(api: Api, data: str) -> None:
    response = api.request("POST", "/v1/templates", data=data,
                           headers={"Content-Type": "application/json"})
    assert_error(response, 400, "invalid_request_error", "invalid_json")


def test_empty_body_is_400(api: Api) -> None:
    response = api.request("POST", "/v1/templates", data="",
                           headers={"Content-Type": "application/json"})
    assert_error(response, 400, "invalid_request_error", "body_missing")


def test_form_body_is_400(api: Api) -> None:
    response = api.request("POST", "/v1/templates", data={"name": "x"})
    assert_error(response, 400, "invalid_request_error", "invalid_content_type")


def test_unhandled_failure_is_500_api_error_without_details(app, api: Api) -> None:
    from webapp.services.templates import revisions

    original = revisions.list_

    def broken(*args, **kwargs):
        raise RuntimeError("SELECT secret FROM internals")

    revisions.list_ = broken
    try:
        response = api.get("/v1/templates")
    finally:
        revisions.list_ = original
    assert response.status_code == 500
    body = response.get_json()
    assert body["error"]["type"] == "api_error"
    assert set(body["error"]) == {"type", "message"}
    assert "SELECT" not in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)
    assert body["requestId"] == response.headers["Request-Id"]


def test_database_down_is_503(app, api: Api) -> None:
    from sqlalchemy.exc import OperationalError

    from webapp.services.templates import revisions

    original = revisions.list_

    def down(*args, **kwargs):
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    revisions.list_ = down
    try:
        response = api.get("/v1/templates")
    finally:
        revisions.list_ = original
    error = assert_error(response, 503, "api_error", "service_unavailable")
    assert "connection refused" not in error["message"]
    assert response.headers["Retry-After"] == "5"


def test_request_logs_carry_no_secrets(app, api: Api, org: dict, caplog) -> None:
    import logging

    with caplog.at_level(logging.INFO, logger="webapp.request"):
        api.get("/v1/me")
    lines = [r.getMessage() for r in caplog.records if r.name == "webapp.request"]
    assert len(lines) == 1
    assert "path=/v1/me" in lines[0] and "status=200" in lines[0] and "requestId=req_" in lines[0]
    assert org["keys"]["test"] not in lines[0]


@pytest.mark.parametrize(("body", "param"), [
    ('{"name": "a\\u0000b", "type": "generic"}', "name"),
    ('{"definition": {"colors": {"bac\\u0000kground": "#000000"}}}',
     "definition.colors.bac\ufffdkground"),  # the name as it can be shown
    ('{"definition": {"locations": [{"relevantText": "\\u0000"}]}}',
     "definition.locations.0.relevantText"),
])
def test_nul_characters_are_rejected_not_stored(api, body: str, param: str) -> None:
    response = api.client.post("/v1/templates", data=body, headers={
        **api.headers(method="POST"), "Content-Type": "application/json"})
    assert_error(response, 400, "invalid_request_error", "parameter_invalid", param)


def test_an_escaped_backslash_before_u0000_is_not_a_nul(api) -> None:
    response = api.client.post("/v1/templates", data='{"name": "x\\\\u0000", "type": "nope"}',
                               headers={**api.headers(method="POST"),
                                        "Content-Type": "application/json"})
    error = assert_error(response, 400, "invalid_request_error")
    assert "U+0000" not in error["message"]


@pytest.mark.parametrize("path", [
    "/v1/passes?search=a%00b", "/v1/passes/pass_%00", "/v1/templates/tmpl_%00x",
    "/v1/passes?cursor=%00", "/v1/templates?limit=%00", "/v1/passes?templateId=%00",
])
def test_nul_in_paths_and_queries_is_never_a_500(api, path: str) -> None:
    response = api.get(path)
    assert response.status_code in (200, 400, 404), response.get_data(as_text=True)
    if response.status_code != 200:  # the documented error shape, whatever the type
        assert_error(response, response.status_code, response.get_json()["error"].get("type"))
