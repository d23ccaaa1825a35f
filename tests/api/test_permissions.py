"""Restricted API keys: a level per resource, checked before any validation or idempotency
claim (403 permission_error / insufficient_scope), reported by GET /v1/me."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator

from tests.api.factories import template_body
from tests.conftest import Api, assert_error
from webapp.domain import permissions
from webapp.errors import InvalidRequest
from webapp.services.accounts import api_keys

EVERY_READ = dict.fromkeys(permissions.RESOURCES, "read")
NOTHING = dict.fromkeys(permissions.RESOURCES, "none")
# Which resource a path belongs to, by its first segments. A new kind of path must be added
# here, so the test states what each route needs rather than reading it from the route.
RESOURCE_OF_PATH = [
    ("/v1/passes/{pass_id}/download-links", "download_links"),
    ("/v1/download-links/", "download_links"),
    ("/v1/passes/{pass_id}/redemptions", "redemptions"),
    ("/v1/scans", "redemptions"),
    ("/v1/bulk-jobs", "bulk_jobs"),
    ("/v1/passes", "passes"),
    ("/v1/pass-updates/", "passes"),
    ("/v1/messages", "passes"),  # a message changes passes (decisions.md "Messages")
    ("/v1/templates", "templates"),
    ("/v1/assets", "assets"),
    ("/v1/webhook-endpoints", "webhooks"),
    ("/v1/events", "events"),
    ("/v1/insights", "insights"),
]
WRITES = {"post", "put", "patch", "delete"}


def restricted(app: Flask, client: FlaskClient, org: dict[str, Any],
               chosen: Mapping[str, str] | None, environment: str = "test") -> Api:
    """A client with a new key of the organization holding `chosen` permissions."""
    with app.app_context():
        _, secret = api_keys.create(org["id"], environment, "Restricted", chosen)
    return Api(client, secret)


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    return client.get("/v1/openapi.json").get_json()


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, ops in document["paths"].items()
            for method, op in ops.items()]


def needed(path: str, method: str) -> str:
    """The permission the test expects an operation to need."""
    resource = next(r for prefix, r in RESOURCE_OF_PATH if path.startswith(prefix))
    return f"{resource}:{'write' if method in WRITES else 'read'}"


def refusal(permission: str) -> str:
    resource, level = permission.split(":")
    return (f"This API key cannot {level} {resource.replace('_', ' ')}: "
            f"it needs the {permission} permission.")


def call(api: Api, path: str, method: str) -> Any:
    """The operation with made-up IDs and, on writes, a body no view would accept."""
    url = re.sub(r"{[^}]+}", "x_missing", path)
    if method not in WRITES:
        return api.request(method.upper(), url)
    return api.request(method.upper(), url, data=b'{"not": json', headers={
        "Content-Type": "application/json"})


def assert_refused(response: Any, permission: str) -> None:
    assert response.status_code == 403, response.get_data(as_text=True)
    body = response.get_json()
    assert body == {"error": {"type": "permission_error", "code": "insufficient_scope",
                              "message": refusal(permission)},
                    "requestId": response.headers["Request-Id"]}
    assert "Idempotent-Replayed" not in response.headers


def idempotency_records(app: Flask) -> int:
    from sqlalchemy import func, select

    from webapp.extensions import db
    from webapp.models.idempotency import IdempotencyRecord

    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(IdempotencyRecord)) or 0


# ---- every operation of the OpenAPI document ---------------------------------------------

def test_every_operation_declares_the_permission_it_needs(document: dict[str, Any]) -> None:
    seen = 0
    for path, method, op in operations(document):
        if path == "/v1/me":
            assert op["x-permission"] is None
            assert "403" not in op["responses"]
            continue
        seen += 1
        assert op["x-permission"] == needed(path, method), (method, path)
        assert f"`{op['x-permission']}`" in op["description"]
        response = op["responses"]["403"]
        assert response["content"] == {"application/json": {
            "schema": {"$ref": "#/components/schemas/Error"}}}
        # Answered before the Idempotency-Key is looked at: never a replay.
        assert set(response["headers"]) == {"Request-Id"}, (method, path)
    assert seen >= 30


def test_a_read_only_key_reads_everything_and_writes_nothing(
        app: Flask, client: FlaskClient, org: dict[str, Any], document: dict[str, Any]) -> None:
    reader = restricted(app, client, org, permissions.preset("read_only").permissions)
    error = Draft202012Validator({"$ref": "#/components/schemas/Error",
                                  "components": document["components"]})
    writes = 0
    for path, method, _ in operations(document):
        response = call(reader, path, method)
        if method in WRITES:
            writes += 1
            assert_refused(response, needed(path, method))
            error.validate(response.get_json())
        else:
            assert response.status_code in (200, 404), (method, path, response.status_code)
    assert writes >= 15
    assert idempotency_records(app) == 0


def test_a_key_without_access_gets_403_everywhere_but_me(
        app: Flask, client: FlaskClient, org: dict[str, Any], document: dict[str, Any]) -> None:
    nobody = restricted(app, client, org, {})
    for path, method, _ in operations(document):
        response = call(nobody, path, method)
        if path == "/v1/me":
            assert response.status_code == 200
            assert response.get_json()["permissions"] == NOTHING
        else:
            assert_refused(response, needed(path, method))
    assert idempotency_records(app) == 0


def test_the_refusal_comes_before_the_idempotency_key_is_claimed(
        app: Flask, client: FlaskClient, org: dict[str, Any], api: Api) -> None:
    reader = restricted(app, client, org, EVERY_READ)
    key = str(uuid.uuid4())
    assert_refused(reader.post("/v1/templates", {"name": "x"}, idem=key), "templates:write")
    # The same key with another body is a first request for a key allowed to write.
    created = api.post("/v1/templates", template_body(), idem=key)
    assert created.status_code == 201, created.get_data(as_text=True)
    assert "Idempotent-Replayed" not in created.headers
    assert idempotency_records(app) == 1


def test_the_refusal_comes_before_a_missing_idempotency_key(
        app: Flask, client: FlaskClient, org: dict[str, Any]) -> None:
    reader = restricted(app, client, org, EVERY_READ)
    response = client.post("/v1/passes", data=b"[]", headers={
        "Authorization": f"Bearer {reader.key}", "Content-Type": "text/plain"})
    assert_refused(response, "passes:write")


def test_a_bad_key_is_still_401_before_any_permission(client: FlaskClient) -> None:
    response = client.post("/v1/passes", json={}, headers={
        "Authorization": "Bearer svc_test_" + "x" * 32, "Idempotency-Key": "k"})
    assert_error(response, 401, None, "invalid_api_key")


def test_options_needs_a_key_but_no_permission(app: Flask, client: FlaskClient,
                                               org: dict[str, Any]) -> None:
    nobody = restricted(app, client, org, {})
    response = nobody.request("OPTIONS", "/v1/passes")
    assert response.status_code == 200
    assert set(response.headers["Allow"].split(", ")) == {"GET", "HEAD", "POST", "OPTIONS"}
    assert client.open("/v1/passes", method="OPTIONS").status_code == 401


# ---- what each level allows ----------------------------------------------------------------

def test_write_includes_read_and_other_resources_stay_closed(
        app: Flask, client: FlaskClient, org: dict[str, Any], api: Api) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    writer = restricted(app, client, org, {"templates": "write"})
    assert writer.get(f"/v1/templates/{template['id']}").status_code == 200
    assert writer.get("/v1/templates").get_json()["data"][0]["id"] == template["id"]
    renamed = writer.patch(f"/v1/templates/{template['id']}",
                           {"expectedRevision": 1, "name": "Renamed"})
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Renamed"
    assert_refused(writer.get("/v1/passes"), "passes:read")
    assert_refused(writer.get("/v1/events"), "events:read")


def test_the_issue_passes_preset(app: Flask, client: FlaskClient, org: dict[str, Any],
                                 api: Api) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    shop = restricted(app, client, org, permissions.preset("issue_passes").permissions)
    assert shop.get(f"/v1/templates/{template['id']}").status_code == 200
    issued = shop.post("/v1/passes", {"templateId": template["id"],
                                      "fieldValues": {"member": "Ada"}})
    assert issued.status_code == 201, issued.get_data(as_text=True)
    pass_id = issued.get_json()["id"]
    link = shop.post(f"/v1/passes/{pass_id}/download-links")
    assert link.status_code == 201
    assert shop.patch(f"/v1/passes/{pass_id}", {"fieldValues": {"member": "Ada L."}}
                      ).status_code == 200
    assert shop.delete(f"/v1/download-links/{link.get_json()['id']}").status_code == 204
    assert shop.delete(f"/v1/passes/{pass_id}").status_code == 200
    assert_refused(shop.post("/v1/templates", template_body()), "templates:write")
    assert_refused(shop.post("/v1/assets", {}), "assets:write")
    assert_refused(shop.get("/v1/webhook-endpoints"), "webhooks:read")
    assert_refused(shop.get("/v1/events"), "events:read")


def test_the_read_only_preset_reads_real_resources(app: Flask, client: FlaskClient,
                                                   org: dict[str, Any], api: Api) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    issued = api.post("/v1/passes", {"templateId": template["id"],
                                     "fieldValues": {"member": "Ada"}}).get_json()
    reader = restricted(app, client, org, permissions.preset("read_only").permissions)
    assert reader.get(f"/v1/passes/{issued['id']}").get_json()["id"] == issued["id"]
    assert reader.get(f"/v1/passes/{issued['id']}/download-links").status_code == 200
    events = reader.get("/v1/events").get_json()["data"]
    assert [e["type"] for e in events] == ["pass.created"]
    assert reader.get(f"/v1/events/{events[0]['id']}").status_code == 200
    assert_refused(reader.delete(f"/v1/passes/{issued['id']}"), "passes:write")
    assert api.get(f"/v1/passes/{issued['id']}").get_json()["status"] == "active"


def test_the_full_access_preset_is_a_key_without_permissions(
        app: Flask, client: FlaskClient, org: dict[str, Any]) -> None:
    full = restricted(app, client, org, permissions.preset("full_access").permissions)
    assert full.get("/v1/me").get_json()["permissions"] is None
    assert full.post("/v1/templates", template_body()).status_code == 201


def test_a_restricted_key_stays_in_its_environment(app: Flask, client: FlaskClient,
                                                   org: dict[str, Any], api: Api) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    issued = api.post("/v1/passes", {"templateId": template["id"],
                                     "fieldValues": {"member": "Ada"}}).get_json()
    live_reader = restricted(app, client, org, EVERY_READ, environment="live")
    assert live_reader.get(f"/v1/passes/{issued['id']}").status_code == 404
    assert live_reader.get("/v1/me").get_json()["environment"] == "live"


# ---- GET /v1/me --------------------------------------------------------------------------

def test_me_reports_every_resource_of_a_restricted_key(
        app: Flask, client: FlaskClient, org: dict[str, Any], document: dict[str, Any]) -> None:
    shop = restricted(app, client, org, {"passes": "write", "templates": "read"})
    body = shop.get("/v1/me").get_json()
    assert body == {"organizationId": org["id"], "environment": "test", "permissions": {
        "templates": "read", "assets": "none", "passes": "write", "download_links": "none",
        "webhooks": "none", "events": "none", "redemptions": "none", "bulk_jobs": "none",
        "insights": "none"}}
    me = Draft202012Validator({"$ref": "#/components/schemas/Me",
                               "components": document["components"]})
    me.validate(body)
    me.validate(Api(client, org["keys"]["test"]).get("/v1/me").get_json())


def test_a_resource_missing_from_a_stored_key_is_none(app: Flask, client: FlaskClient,
                                                      org: dict[str, Any]) -> None:
    """A key made before a resource existed gets no access to it."""
    shop = restricted(app, client, org, {"passes": "write"})
    from sqlalchemy import update

    from webapp.db.transaction import transaction
    from webapp.models import ApiKey

    with app.app_context(), transaction() as session:
        session.execute(update(ApiKey).where(ApiKey.name == "Restricted")
                        .values(permissions={"passes": "write", "templates": "read"}))
    assert shop.get("/v1/me").get_json()["permissions"] == {
        **NOTHING, "passes": "write", "templates": "read"}
    assert shop.get("/v1/templates").status_code == 200
    assert_refused(shop.get("/v1/events"), "events:read")


# ---- creating keys: the service --------------------------------------------------------------

@pytest.mark.parametrize(("chosen", "message"), [
    ({"passes": "write", "bulk": "read"},
     "Unknown resource 'bulk' in permissions: use templates, assets, passes, download_links, "
     "webhooks, events, redemptions, bulk_jobs or insights."),
    ({"passes": "admin"}, "Unknown level 'admin' for passes: use none, read or write."),
    ({"passes": None}, "Unknown level None for passes: use none, read or write."),
    (["passes"], "permissions must map resources to levels."),
    ({"x" * 60: "read"}, f"Unknown resource '{'x' * 38}… in permissions: use templates, "
                         "assets, passes, download_links, webhooks, events, redemptions, "
                         "bulk_jobs or insights."),
])
def test_the_service_refuses_unknown_resources_and_levels(
        app: Flask, org: dict[str, Any], chosen: Any, message: str) -> None:
    from webapp.api import errors as wire

    with app.test_request_context():
        with pytest.raises(InvalidRequest) as caught:
            api_keys.create(org["id"], "test", "Bad", chosen)
        assert (caught.value.message, caught.value.code, caught.value.param) == (
            message, "invalid_permissions", "permissions")
        assert wire.from_service_error(caught.value).status_code == 400
        assert len(api_keys.list_for(org["id"])) == 2  # nothing was made


def test_the_service_stores_every_resource(app: Flask, org: dict[str, Any]) -> None:
    with app.app_context():
        key, _ = api_keys.create(org["id"], "live", "Shop", {"passes": "write"})
        assert key.permissions == {**NOTHING, "passes": "write"}
        full, _ = api_keys.create(org["id"], "live", "Full")
        assert full.permissions is None


# ---- the permission model ------------------------------------------------------------------

def test_levels_are_ordered() -> None:
    need_read, need_write = permissions.Need("passes", "read"), permissions.Need("passes", "write")
    assert permissions.allows(None, need_write)
    assert permissions.allows({"passes": "write"}, need_read)
    assert permissions.allows({"passes": "read"}, need_read)
    assert not permissions.allows({"passes": "read"}, need_write)
    assert not permissions.allows({"passes": "none"}, need_read)
    assert not permissions.allows({}, need_read)
    assert not permissions.allows({"passes": "bogus"}, need_read)


def test_presets_are_named_and_described() -> None:
    assert [p.name for p in permissions.PRESETS] == ["full_access", "read_only", "issue_passes"]
    for preset in permissions.PRESETS:
        assert preset.label and preset.description.endswith(".")
        assert permissions.describe(preset.permissions) == preset.label
        assert permissions.preset(preset.name) is preset
    assert permissions.preset("read_only").permissions == EVERY_READ
    assert permissions.preset("issue_passes").permissions == {
        **NOTHING, "passes": "write", "download_links": "write", "templates": "read",
        "assets": "read"}
    with pytest.raises(permissions.InvalidPermissions, match="use full_access, read_only or "
                                                             "issue_passes"):
        permissions.preset("admin")


def test_access_in_words() -> None:
    assert permissions.describe(None) == "Full access"
    assert permissions.describe({}) == "No access (GET /v1/me only)"
    assert permissions.describe({"passes": "write", "templates": "read", "events": "read"}) == (
        "Custom: write passes; read templates, events")
    assert permissions.details(permissions.preset("issue_passes").permissions) == (
        "write passes, download links; read templates, assets")
    assert permissions.details(None) == "read and write every resource"


@pytest.mark.parametrize(("text", "result"), [
    ("passes=write,templates=read", {**NOTHING, "passes": "write", "templates": "read"}),
    (" passes = write , events=read ", {**NOTHING, "passes": "write", "events": "read"}),
    ("passes=none", NOTHING),
])
def test_parse(text: str, result: dict[str, str]) -> None:
    assert permissions.parse(text) == result


@pytest.mark.parametrize(("text", "message"), [
    ("", "such as passes=write,templates=read; not ''."),
    ("passes", "not 'passes'."),
    ("passes=write,,", "not ''."),
    ("=write", "not '=write'."),
    ("passes=write,passes=read", "'passes' is named twice in permissions."),
    ("pass=write", "Unknown resource 'pass' in permissions"),
    ("passes=all", "Unknown level 'all' for passes"),
])
def test_parse_refuses(text: str, message: str) -> None:
    with pytest.raises(permissions.InvalidPermissions) as caught:
        permissions.parse(text)
    assert message in caught.value.message


def test_a_route_cannot_declare_a_permission_that_does_not_exist() -> None:
    from webapp.api.openapi import doc

    with pytest.raises(ValueError, match=r"A route cannot need passes:admin\."):
        doc("Bad", permission=("passes", "admin"))
    with pytest.raises(ValueError, match=r"A route cannot need pases:read\."):
        doc("Bad", permission=("pases", "read"))
    with pytest.raises(TypeError, match="permission"):
        doc("Undeclared")  # type: ignore[call-arg]


def test_the_app_does_not_start_with_an_undeclared_route() -> None:
    from webapp.api.auth import check_declared

    app = Flask("undeclared")
    app.add_url_rule("/v1/openapi.json", endpoint="api.openapi", view_func=lambda: "")
    app.add_url_rule("/v1/declared", endpoint="api.declared", view_func=_declared)
    check_declared(app)  # the public document needs none
    app.add_url_rule("/v1/forgotten", endpoint="api.forgotten", view_func=lambda: "")
    with pytest.raises(RuntimeError, match=r"declare no permission .*: api\.forgotten$"):
        check_declared(app)


def _declared() -> str:
    return ""


_declared.__apidoc__ = {"permission": None}  # type: ignore[attr-defined]
