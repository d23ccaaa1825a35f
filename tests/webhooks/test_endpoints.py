"""/v1/webhook-endpoints: create, list, get, update, delete, rotate; validation; isolation."""

from __future__ import annotations

import pytest

from tests.conftest import Api, assert_error
from tests.webhooks.conftest import endpoint

URL = "https://hooks.example.com/passes"


def test_create_returns_the_endpoint_with_its_secret_once(api: Api) -> None:
    response = api.post("/v1/webhook-endpoints", {
        "url": URL, "enabledEvents": ["pass.created", "pass.voided"], "description": "CRM"})
    assert response.status_code == 201
    body = response.get_json()
    assert set(body) == {"object", "id", "url", "description", "enabledEvents", "status",
                         "disabledReason", "environment", "secret", "createdAt", "updatedAt"}
    assert body["object"] == "webhook_endpoint" and body["id"].startswith("we_")
    assert body["enabledEvents"] == ["pass.created", "pass.voided"]
    assert body["status"] == "enabled" and body["disabledReason"] is None
    assert body["environment"] == "test" and body["description"] == "CRM"
    assert body["secret"].startswith("whsec_")
    got = api.get(f"/v1/webhook-endpoints/{body['id']}").get_json()
    assert "secret" not in got
    assert got == {k: v for k, v in body.items() if k != "secret"}
    listed = api.get("/v1/webhook-endpoints").get_json()
    assert listed["object"] == "list" and [e["id"] for e in listed["data"]] == [body["id"]]
    assert "secret" not in listed["data"][0]


def test_enabled_events_default_to_all(api: Api) -> None:
    assert endpoint(api, URL)["enabledEvents"] == ["*"]


def test_secret_is_encrypted_at_rest(app, api: Api) -> None:
    created = endpoint(api, URL)
    from sqlalchemy import text

    from webapp.extensions import db

    with app.app_context():
        raw = db.session.execute(text("SELECT secrets_encrypted FROM webhook_endpoints")).scalar()
    secret = created["secret"]
    assert secret.encode() not in raw and secret.removeprefix("whsec_").encode() not in raw


@pytest.mark.parametrize(("body", "code", "param"), [
    ({"url": "ftp://example.com/x"}, "url_invalid", "url"),
    ({"url": "/relative"}, "url_invalid", "url"),
    ({"url": "https://user:pw@example.com/x"}, "url_invalid", "url"),
    ({"url": "https://example.com:99999/x"}, "url_invalid", "url"),
    ({"url": "http://127.0.0.1:8080/x"}, "url_not_allowed", "url"),
    ({"url": "http://localhost/x"}, "url_not_allowed", "url"),
    ({"url": "http://169.254.169.254/latest"}, "url_not_allowed", "url"),
    ({"url": "http://[::1]/x"}, "url_not_allowed", "url"),
    ({"url": "http://10.1.2.3/x"}, "url_not_allowed", "url"),
    ({"url": URL, "enabledEvents": []}, "parameter_invalid", "enabledEvents"),
    ({"url": URL, "enabledEvents": ["pass.exploded"]}, "unknown_event_type", "enabledEvents"),
    ({"url": URL, "enabledEvents": ["*", "pass.created"]}, "parameter_invalid",
     "enabledEvents"),
    ({"url": URL, "enabledEvents": "pass.created"}, "parameter_invalid", "enabledEvents"),
    ({"url": URL, "description": "x" * 201}, "parameter_invalid", "description"),
    ({"url": URL, "secret": "whsec_mine"}, "parameter_unknown", "secret"),
    ({"enabledEvents": ["*"]}, "parameter_missing", "url"),
    ({"url": 5}, "parameter_invalid", "url"),
])
def test_bad_create_bodies_are_400(app, api: Api, body, code, param) -> None:
    app.config["WEBHOOKS_ALLOW_PRIVATE_NETWORKS"] = False
    assert_error(api.post("/v1/webhook-endpoints", body), 400, "invalid_request_error", code,
                 param)


def test_live_endpoints_must_be_https_test_ones_may_be_http(api: Api, live_api: Api) -> None:
    assert_error(live_api.post("/v1/webhook-endpoints", {"url": "http://hooks.example.com/x"}),
                 400, "invalid_request_error", "url_invalid", "url")
    assert endpoint(live_api, URL)["environment"] == "live"
    assert endpoint(api, "http://hooks.example.com/x")["url"] == "http://hooks.example.com/x"


def test_private_addresses_are_accepted_when_the_installation_allows(app, api: Api) -> None:
    app.config["WEBHOOKS_ALLOW_PRIVATE_NETWORKS"] = True
    assert endpoint(api, "http://127.0.0.1:9/x")["url"] == "http://127.0.0.1:9/x"
    assert endpoint(api, "http://10.1.2.3/x")["url"] == "http://10.1.2.3/x"
    assert_error(api.post("/v1/webhook-endpoints", {"url": "http://169.254.169.254/x"}), 400,
                 "invalid_request_error", "url_not_allowed", "url")


def test_duplicate_url_and_too_many_endpoints(api: Api) -> None:
    endpoint(api, URL)
    assert_error(api.post("/v1/webhook-endpoints", {"url": URL}), 400,
                 "invalid_request_error", "url_in_use", "url")
    for n in range(15):
        endpoint(api, f"{URL}/{n}")
    assert_error(api.post("/v1/webhook-endpoints", {"url": f"{URL}/16"}), 400,
                 "invalid_request_error", "too_many_endpoints")


def test_update_changes_members_and_null_clears_description(api: Api) -> None:
    created = endpoint(api, URL, description="old")
    response = api.patch(f"/v1/webhook-endpoints/{created['id']}", {
        "url": URL + "/v2", "enabledEvents": ["pass.updated"], "description": None})
    assert response.status_code == 200
    body = response.get_json()
    assert body["url"] == URL + "/v2" and body["enabledEvents"] == ["pass.updated"]
    assert body["description"] is None and "secret" not in body
    assert api.patch(f"/v1/webhook-endpoints/{created['id']}", {}).status_code == 200


def test_disable_and_enable(api: Api) -> None:
    created = endpoint(api, URL)
    body = api.patch(f"/v1/webhook-endpoints/{created['id']}", {"status": "disabled"}
                     ).get_json()
    assert body["status"] == "disabled" and body["disabledReason"] == "manual"
    body = api.patch(f"/v1/webhook-endpoints/{created['id']}", {"status": "enabled"}).get_json()
    assert body["status"] == "enabled" and body["disabledReason"] is None
    assert_error(api.patch(f"/v1/webhook-endpoints/{created['id']}", {"status": "paused"}),
                 400, "invalid_request_error", "parameter_invalid", "status")


def test_bad_update_bodies(api: Api, live_api: Api) -> None:
    created = endpoint(api, URL)
    path = f"/v1/webhook-endpoints/{created['id']}"
    assert_error(api.patch(path, {"enabledEvents": ["nope"]}), 400, "invalid_request_error",
                 "unknown_event_type", "enabledEvents")
    assert_error(api.patch(path, {"url": "gopher://x"}), 400, "invalid_request_error",
                 "url_invalid", "url")
    assert_error(api.patch(path, {"environment": "live"}), 400, "invalid_request_error",
                 "parameter_unknown", "environment")
    assert_error(api.patch(path, [1]), 400, "invalid_request_error")
    live = endpoint(live_api, URL)
    assert_error(live_api.patch(f"/v1/webhook-endpoints/{live['id']}",
                                {"url": "http://hooks.example.com/x"}),
                 400, "invalid_request_error", "url_invalid", "url")


def test_delete_returns_the_endpoint_marked_deleted(api: Api) -> None:
    created = endpoint(api, URL)
    response = api.delete(f"/v1/webhook-endpoints/{created['id']}")
    assert response.status_code == 200
    body = response.get_json()
    assert body["deleted"] is True and body["id"] == created["id"]
    assert_error(api.get(f"/v1/webhook-endpoints/{created['id']}"), 404, "not_found_error")
    assert_error(api.delete(f"/v1/webhook-endpoints/{created['id']}"), 404, "not_found_error")


def test_rotate_returns_a_new_secret(api: Api) -> None:
    created = endpoint(api, URL)
    response = api.post(f"/v1/webhook-endpoints/{created['id']}/rotate-secret")
    assert response.status_code == 200
    rotated = response.get_json()
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != created["secret"]
    for bad in (-1, 7 * 24 * 3600 + 1, "60", True, 1.5):
        assert_error(api.post(f"/v1/webhook-endpoints/{created['id']}/rotate-secret",
                              {"expiresInSeconds": bad}), 400, "invalid_request_error",
                     param="expiresInSeconds")


def test_other_tenants_and_environments_see_nothing(api: Api, live_api: Api,
                                                    other_api: Api) -> None:
    created = endpoint(api, URL)
    path = f"/v1/webhook-endpoints/{created['id']}"
    for client in (live_api, other_api):
        assert_error(client.get(path), 404, "not_found_error")
        assert_error(client.patch(path, {"description": "x"}), 404, "not_found_error")
        assert_error(client.delete(path), 404, "not_found_error")
        assert_error(client.post(path + "/rotate-secret"), 404, "not_found_error")
        assert_error(client.get(path + "/deliveries"), 404, "not_found_error")
        assert client.get("/v1/webhook-endpoints").get_json()["data"] == []
    assert api.get(path).status_code == 200


def test_list_paginates_newest_first(api: Api) -> None:
    ids = [endpoint(api, f"{URL}/{n}")["id"] for n in range(3)]
    first = api.get("/v1/webhook-endpoints?limit=2").get_json()
    assert [e["id"] for e in first["data"]] == ids[::-1][:2] and first["hasMore"]
    rest = api.get(f"/v1/webhook-endpoints?limit=2&cursor={first['nextCursor']}").get_json()
    assert [e["id"] for e in rest["data"]] == ids[:1] and rest["nextCursor"] is None
    assert_error(api.get("/v1/webhook-endpoints?limit=0"), 400, "invalid_request_error",
                 param="limit")
    assert_error(api.get("/v1/webhook-endpoints?cursor=we_nope"), 400,
                 "invalid_request_error", "invalid_cursor")


def test_writes_need_an_idempotency_key_and_replay(api: Api) -> None:
    response = api.client.post("/v1/webhook-endpoints", json={"url": URL},
                               headers={"Authorization": f"Bearer {api.key}"})
    assert_error(response, 400, "invalid_request_error", "idempotency_key_missing")
    first = api.post("/v1/webhook-endpoints", {"url": URL}, idem="same")
    again = api.post("/v1/webhook-endpoints", {"url": URL}, idem="same")
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json() == first.get_json()
