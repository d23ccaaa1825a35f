"""The Apple Wallet web service under /wallet/apple/v1: exact statuses, ApplePass auth,
update tags, conditional fetches, logs, and the installation events."""

from __future__ import annotations

from email.utils import parsedate_to_datetime
from typing import Any

import pytest
from flask import Flask

from tests.apple import validate
from tests.apple.conftest import DEMO_PASS_TYPE, Device, auth_token, issue
from tests.conftest import Api

TOKEN_A = "a" * 64


@pytest.fixture
def device(client) -> Device:
    return Device(client, "d3v1c3library0001", TOKEN_A)


def events_of(api: Api, type_: str) -> list[dict[str, Any]]:
    response = api.get("/v1/events", query_string={"type": type_})
    assert response.status_code == 200
    return response.get_json()["data"]


def test_register_new_then_known(api: Api, device: Device, item: dict, token: str) -> None:
    assert device.register(DEMO_PASS_TYPE, item["id"], token).status_code == 201
    assert device.register(DEMO_PASS_TYPE, item["id"], token).status_code == 200
    added = events_of(api, "pass.added_to_wallet")
    assert len(added) == 1  # a known device registering again is not a new installation
    assert added[0]["data"]["wallet"] == {"platform": "apple", "installations": 1}
    assert added[0]["data"]["object"]["id"] == item["id"]


def test_register_again_refreshes_the_push_token(app: Flask, client, item: dict, token: str
                                                 ) -> None:
    from webapp.services.apple import registrations

    Device(client, "dev1", "b" * 64).register(DEMO_PASS_TYPE, item["id"], token)
    Device(client, "dev1", "c" * 64).register(DEMO_PASS_TYPE, item["id"], token)
    with app.app_context():
        assert [r.push_token for r in registrations.registrations(item["id"])] == \
            ["c" * 64]


def test_second_device_counts_two_installations(api: Api, client, item: dict, token: str
                                                ) -> None:
    Device(client, "phone", TOKEN_A).register(DEMO_PASS_TYPE, item["id"], token)
    Device(client, "tablet", "b" * 64).register(DEMO_PASS_TYPE, item["id"], token)
    counts = sorted(e["data"]["wallet"]["installations"]
                    for e in events_of(api, "pass.added_to_wallet"))
    assert counts == [1, 2]


@pytest.mark.parametrize("header", [None, "", "ApplePass", "ApplePass wrong-token",
                                    "Bearer {token}", "applepass {token}",
                                    "ApplePass  {token}", "ApplePass {token}x"])
def test_register_needs_the_pass_token(client, device: Device, item: dict, token: str,
                                       header: str | None) -> None:
    headers = {} if header is None else {"Authorization": header.format(token=token)}
    response = client.post(device.path(DEMO_PASS_TYPE, item["id"]),
                           json={"pushToken": TOKEN_A}, headers=headers)
    assert response.status_code == 401


def test_token_of_another_pass_is_refused(api: Api, device: Device, item: dict, app: Flask
                                          ) -> None:
    other = issue(api)
    other_token = auth_token(app, other["id"])
    assert device.register(DEMO_PASS_TYPE, item["id"], other_token).status_code == 401


@pytest.mark.parametrize("serial", ["pass_unknown00000000000000000", "nope", "tmpl_x"])
def test_unknown_serial_answers_like_a_wrong_token(device: Device, token: str, serial: str
                                                   ) -> None:
    assert device.register(DEMO_PASS_TYPE, serial, token).status_code == 401


def test_wrong_pass_type_is_refused(device: Device, item: dict, token: str) -> None:
    assert device.register("pass.com.other", item["id"], token).status_code == 401


def test_pass_not_issued_for_apple_is_refused(app: Flask, api: Api, device: Device) -> None:
    other = issue(api, platforms={"apple": False, "google": True})
    assert device.register(DEMO_PASS_TYPE, other["id"],
                           auth_token(app, other["id"])).status_code == 401


@pytest.mark.parametrize("body", [None, [], {}, {"pushToken": 12}, {"pushToken": ""},
                                  {"pushToken": "x" * 513}, {"pushToken": "a b"}])
def test_register_needs_a_push_token(client, device: Device, item: dict, token: str,
                                     body: Any) -> None:
    response = client.post(device.path(DEMO_PASS_TYPE, item["id"]), json=body,
                           headers={"Authorization": f"ApplePass {token}"})
    assert response.status_code == 400


def test_register_with_a_body_that_is_not_json(client, device: Device, item: dict, token: str
                                               ) -> None:
    response = client.post(device.path(DEMO_PASS_TYPE, item["id"]), data=b"\xff{",
                           content_type="application/json",
                           headers={"Authorization": f"ApplePass {token}"})
    assert response.status_code == 400


def test_bad_device_id_is_refused(client, item: dict, token: str) -> None:
    bad = Device(client, "x" * 129, TOKEN_A)
    assert bad.register(DEMO_PASS_TYPE, item["id"], token).status_code == 400
    assert Device(client, "a%20b", TOKEN_A).register(
        DEMO_PASS_TYPE, item["id"], token).status_code == 400


def test_unregister(api: Api, device: Device, item: dict, token: str) -> None:
    device.register(DEMO_PASS_TYPE, item["id"], token)
    assert device.unregister(DEMO_PASS_TYPE, item["id"], "wrong").status_code == 401
    assert device.unregister(DEMO_PASS_TYPE, item["id"], token).status_code == 200
    assert device.unregister(DEMO_PASS_TYPE, item["id"], token).status_code == 200
    removed = events_of(api, "pass.removed_from_wallet")
    assert len(removed) == 1
    assert removed[0]["data"]["wallet"] == {"platform": "apple", "installations": 0}
    assert device.serials(DEMO_PASS_TYPE).status_code == 204


def test_serials_of_a_device(api: Api, device: Device, item: dict, token: str) -> None:
    assert device.serials(DEMO_PASS_TYPE).status_code == 204  # nothing registered
    device.register(DEMO_PASS_TYPE, item["id"], token)
    listed = device.serials(DEMO_PASS_TYPE)
    assert listed.status_code == 200
    body = listed.get_json()
    assert body["serialNumbers"] == [item["id"]] and body["lastUpdated"].isdigit()
    first_tag = body["lastUpdated"]
    assert device.serials(DEMO_PASS_TYPE, first_tag).status_code == 204  # nothing new
    updated = api.patch(f"/v1/passes/{item['id']}", {"fieldValues": {"level": "Gold"}})
    assert updated.status_code == 200
    again = device.serials(DEMO_PASS_TYPE, first_tag)
    assert again.status_code == 200 and again.get_json()["serialNumbers"] == [item["id"]]
    assert int(again.get_json()["lastUpdated"]) > int(first_tag)  # the tag moves on
    assert device.serials(DEMO_PASS_TYPE, device.tag).status_code == 204


def test_serials_only_lists_changed_passes(api: Api, client, app: Flask) -> None:
    device = Device(client, "phone", TOKEN_A)
    first, second = issue(api), issue(api)
    for item in (first, second):
        device.register(DEMO_PASS_TYPE, item["id"], auth_token(app, item["id"]))
    tag = device.serials(DEMO_PASS_TYPE).get_json()["lastUpdated"]
    api.patch(f"/v1/passes/{second['id']}", {"fieldValues": {"level": "Gold"}})
    assert device.serials(DEMO_PASS_TYPE, tag).get_json()["serialNumbers"] == [second["id"]]


@pytest.mark.parametrize("since", ["", "abc", "-1", "9" * 40])
def test_a_tag_that_is_not_ours_lists_everything(device: Device, item: dict, token: str,
                                                 since: str) -> None:
    device.register(DEMO_PASS_TYPE, item["id"], token)
    response = device.serials(DEMO_PASS_TYPE, since)
    assert response.status_code == 200 and response.get_json()["serialNumbers"] == [item["id"]]


def test_serials_are_per_device_and_pass_type(client, device: Device, item: dict, token: str
                                              ) -> None:
    device.register(DEMO_PASS_TYPE, item["id"], token)
    assert Device(client, "other-device", TOKEN_A).serials(DEMO_PASS_TYPE).status_code == 204
    assert device.serials("pass.com.other").status_code == 204


def test_latest_pass_and_conditional_fetch(api: Api, device: Device, item: dict, token: str
                                           ) -> None:
    first = device.fetch(DEMO_PASS_TYPE, item["id"], token)
    assert first.status_code == 200 and first.mimetype == "application/vnd.apple.pkpass"
    assert validate.problems(first.get_data(), None) == []
    modified = parsedate_to_datetime(first.headers["Last-Modified"])
    assert device.fetch(DEMO_PASS_TYPE, item["id"], token).status_code == 304
    api.patch(f"/v1/passes/{item['id']}", {"fieldValues": {"level": "Gold"}})
    second = device.fetch(DEMO_PASS_TYPE, item["id"], token)
    assert second.status_code == 200
    assert parsedate_to_datetime(second.headers["Last-Modified"]) > modified
    doc, _ = validate.read(second.get_data())
    assert {"key": "level", "label": "Level", "value": "Gold"} in doc["generic"][
        "secondaryFields"]
    # Two more updates within the same second still each get a later Last-Modified.
    for level in ("Silver", "Bronze"):
        api.patch(f"/v1/passes/{item['id']}", {"fieldValues": {"level": level}})
        assert device.fetch(DEMO_PASS_TYPE, item["id"], token).status_code == 200


def test_latest_pass_needs_the_token(client, item: dict) -> None:
    response = client.get(f"/wallet/apple/v1/passes/{DEMO_PASS_TYPE}/{item['id']}",
                          headers={"Authorization": "ApplePass nope"})
    assert response.status_code == 401
    assert client.get(f"/wallet/apple/v1/passes/{DEMO_PASS_TYPE}/{item['id']}"
                      ).status_code == 401


def test_latest_pass_answers_head(client, item: dict, token: str) -> None:
    response = client.head(f"/wallet/apple/v1/passes/{DEMO_PASS_TYPE}/{item['id']}",
                           headers={"Authorization": f"ApplePass {token}"})
    assert response.status_code == 200 and "Last-Modified" in response.headers


def test_voided_pass_is_served_voided_without_web_service(api: Api, device: Device,
                                                          item: dict, token: str) -> None:
    device.register(DEMO_PASS_TYPE, item["id"], token)
    device.fetch(DEMO_PASS_TYPE, item["id"], token)
    tag = device.serials(DEMO_PASS_TYPE).get_json()["lastUpdated"]
    assert api.delete(f"/v1/passes/{item['id']}").status_code == 200
    assert device.serials(DEMO_PASS_TYPE, tag).get_json()["serialNumbers"] == [item["id"]]
    response = device.fetch(DEMO_PASS_TYPE, item["id"], token)
    assert response.status_code == 200
    assert validate.problems(response.get_data(), None) == []
    doc, _ = validate.read(response.get_data())
    assert doc["voided"] is True
    assert "webServiceURL" not in doc and "authenticationToken" not in doc


def test_log(client) -> None:
    ok = client.post("/wallet/apple/v1/log", json={"logs": ["Web service error for pass"]})
    assert ok.status_code == 200
    assert client.post("/wallet/apple/v1/log", json={"logs": "x"}).status_code == 400
    assert client.post("/wallet/apple/v1/log", data=b"nope").status_code == 400


def test_routes_that_do_not_exist(client, item: dict, token: str) -> None:
    assert client.put(f"/wallet/apple/v1/passes/{DEMO_PASS_TYPE}/{item['id']}").status_code \
        == 405
    assert client.get("/wallet/apple/v1/nothing").status_code == 404


def test_the_same_device_registering_at_once_is_one_installation(
        app: Flask, api: Api, item: dict, token: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def register(_: int) -> int:
        return Device(app.test_client(), "racing-device", TOKEN_A).register(
            DEMO_PASS_TYPE, item["id"], token).status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = sorted(pool.map(register, range(8)))
    assert statuses == [200] * 7 + [201]
    assert len(events_of(api, "pass.added_to_wallet")) == 1


def test_tags_only_grow(app: Flask, api: Api, client) -> None:
    from concurrent.futures import ThreadPoolExecutor

    device = Device(client, "many", TOKEN_A)
    items = [issue(api) for _ in range(4)]
    for one in items:
        device.register(DEMO_PASS_TYPE, one["id"], auth_token(app, one["id"]))
    tag = device.serials(DEMO_PASS_TYPE).get_json()["lastUpdated"]

    def change(one: dict) -> int:
        return Api(app.test_client(), api.key).patch(
            f"/v1/passes/{one['id']}", {"fieldValues": {"level": "Gold"}}).status_code

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(change, items)) == [200] * 4
    listed = device.serials(DEMO_PASS_TYPE, tag).get_json()
    assert sorted(listed["serialNumbers"]) == sorted(i["id"] for i in items)
    assert int(listed["lastUpdated"]) >= int(tag) + 4
