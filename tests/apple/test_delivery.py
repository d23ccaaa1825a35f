"""Pushes over APNs (a real HTTP/2 + TLS fake that requires the client certificate) and
the delivery record, end to end: register, update, push, ask, fetch."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from tests.apple import validate
from tests.apple.conftest import DEMO_PASS_TYPE, Device, apns_overrides, auth_token, issue
from tests.conftest import Api
from tests.support import pki
from webapp import clock

PHONE, TABLET = "a" * 64, "b" * 64


@pytest.fixture
def extra_overrides(fake_apns: Any) -> dict[str, Any]:
    return apns_overrides(fake_apns)


@pytest.fixture
def phone(client, item: dict, token: str) -> Device:
    device = Device(client, "phone-library-1", PHONE)
    assert device.register(DEMO_PASS_TYPE, item["id"], token).status_code == 201
    return device


def update(api: Api, item: dict, mode: str = "silent", **values: Any) -> dict[str, Any]:
    response = api.patch(f"/v1/passes/{item['id']}", {"fieldValues": values,
                                                       "notificationMode": mode})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["update"]


def delivery(api: Api, update_id: str) -> dict[str, Any]:
    response = api.get(f"/v1/pass-updates/{update_id}")
    assert response.status_code == 200
    return response.get_json()["delivery"]["apple"]


def registered(app: Flask, pass_id: str) -> list[str]:
    from webapp.services.apple import registrations

    with app.app_context():
        return [r.device_library_id for r in registrations.registrations(pass_id)]


def sweep_later(app: Flask, seconds: int) -> None:
    """Move the clock on and run the periodic sweep (it runs due deliveries now)."""
    from webapp.services.outbox import sweep

    moved = clock.now() + timedelta(seconds=seconds)
    clock.set_now(lambda: moved)
    with app.app_context():
        sweep.run()


def test_the_whole_loop_in_notify_mode(api: Api, fake_apns: Any, phone: Device, item: dict,
                                       token: str) -> None:
    assert phone.fetch(DEMO_PASS_TYPE, item["id"], token).status_code == 200
    tag = phone.serials(DEMO_PASS_TYPE).get_json()["lastUpdated"]
    record = update(api, item, "notify", level="Gold")
    [push] = fake_apns.pushes_to(PHONE)
    assert push.method == "POST" and push.path == f"/3/device/{PHONE}"
    assert push.topic == DEMO_PASS_TYPE and push.client_uid == DEMO_PASS_TYPE
    assert push.body == b"{}"
    assert delivery(api, record["id"]) == {"status": "sent", "devices": 1, "error": None}
    changed = phone.serials(DEMO_PASS_TYPE, tag)
    assert changed.get_json()["serialNumbers"] == [item["id"]]
    fetched = phone.fetch(DEMO_PASS_TYPE, item["id"], token)
    assert fetched.status_code == 200
    assert validate.problems(fetched.get_data(), None) == []
    doc, _ = validate.read(fetched.get_data())
    messages = {f["key"]: f.get("changeMessage") for group in doc["generic"].values()
                for f in group}
    assert messages == {"member": None, "level": "Level: %@", "club": None}
    assert delivery(api, record["id"])["status"] == "delivered"
    assert phone.fetch(DEMO_PASS_TYPE, item["id"], token).status_code == 304


def test_silent_mode_has_no_change_message(api: Api, fake_apns: Any, phone: Device,
                                           item: dict, token: str) -> None:
    update(api, item, "notify", level="Gold")
    update(api, item, "silent", level="Platinum")
    assert len(fake_apns.pushes_to(PHONE)) == 2
    doc, _ = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())
    assert not any("changeMessage" in f for group in doc["generic"].values() for f in group)


def test_the_template_change_message_is_used(app: Flask, api: Api, client, fake_apns: Any
                                             ) -> None:
    from tests.apple.conftest import make_template

    template = make_template(api, config={"fields": {
        "primary": [{"key": "points", "label": "Points", "binding": "perPass",
                     "format": "number", "changeMessage": "You now have %@ points"}]}})
    item = issue(api, template, fieldValues={"points": 10})
    token = auth_token(app, item["id"])
    device = Device(client, "dev", PHONE)
    device.register(DEMO_PASS_TYPE, item["id"], token)
    update(api, item, "notify", points=25)
    doc, _ = validate.read(device.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())
    assert doc["generic"]["primaryFields"] == [{
        "key": "points", "label": "Points", "value": 25, "numberStyle": "PKNumberStyleDecimal",
        "changeMessage": "You now have %@ points"}]


def test_no_devices(api: Api, fake_apns: Any, item: dict) -> None:
    record = update(api, item, level="Gold")
    assert delivery(api, record["id"]) == {"status": "no_devices", "devices": 0, "error": None}
    assert fake_apns.pushes == []


def test_every_device_is_pushed_over_one_connection(api: Api, client, fake_apns: Any,
                                                    item: dict, token: str) -> None:
    tokens = [f"{i:064x}" for i in range(20)]
    for number, push_token in enumerate(tokens):
        Device(client, f"device{number}", push_token).register(DEMO_PASS_TYPE, item["id"],
                                                                token)
    before = fake_apns.connections
    record = update(api, item, level="Gold")
    assert sorted(p.token for p in fake_apns.pushes) == sorted(tokens)
    assert delivery(api, record["id"]) == {"status": "sent", "devices": 20, "error": None}
    update(api, item, level="Silver")
    assert fake_apns.connections - before <= 1  # the connection is kept and reused


@pytest.mark.parametrize(("status", "reason"), [(410, "Unregistered"),
                                                (400, "BadDeviceToken"),
                                                (400, "DeviceTokenNotForTopic")])
def test_gone_tokens_end_the_registration(app: Flask, api: Api, client, fake_apns: Any,
                                          phone: Device, item: dict, token: str, status: int,
                                          reason: str) -> None:
    Device(client, "tablet-library", TABLET).register(DEMO_PASS_TYPE, item["id"], token)
    fake_apns.answer(PHONE, (status, reason))
    record = update(api, item, level="Gold")
    assert registered(app, item["id"]) == ["tablet-library"]
    assert delivery(api, record["id"]) == {"status": "sent", "devices": 1, "error": None}
    removed = api.get("/v1/events", query_string={"type": "pass.removed_from_wallet"})
    [event] = removed.get_json()["data"]
    assert event["data"]["wallet"] == {"platform": "apple", "installations": 1}


def test_the_only_device_gone_means_no_devices(app: Flask, api: Api, fake_apns: Any,
                                               phone: Device, item: dict) -> None:
    fake_apns.answer(PHONE, (410, "Unregistered"))
    record = update(api, item, level="Gold")
    assert registered(app, item["id"]) == []
    assert delivery(api, record["id"]) == {"status": "no_devices", "devices": 0, "error": None}


def test_certificate_rejected(app: Flask, api: Api, fake_apns: Any, phone: Device,
                              item: dict) -> None:
    fake_apns.reject_all = (403, "BadCertificate")
    record = update(api, item, level="Gold")
    apple = delivery(api, record["id"])
    assert apple["status"] == "failed" and apple["devices"] == 0
    assert apple["error"]["code"] == "apns_certificate_rejected"
    assert registered(app, item["id"]) == ["phone-library-1"]  # not the device's fault


@pytest.mark.parametrize(("status", "reason", "code"), [(429, "TooManyRequests", "apns_throttled"),
                                                        (500, "InternalServerError",
                                                         "apns_unavailable"),
                                                        (503, "ServiceUnavailable",
                                                         "apns_unavailable")])
def test_busy_apns_is_retried_for_the_devices_not_reached(
        app: Flask, api: Api, client, fake_apns: Any, phone: Device, item: dict, token: str,
        status: int, reason: str, code: str) -> None:
    Device(client, "tablet-library", TABLET).register(DEMO_PASS_TYPE, item["id"], token)
    fake_apns.answer(TABLET, (status, reason), (200, None))
    started = clock.now()
    clock.set_now(lambda: started)  # the retry is due 5 s after the failure, however slow
    record = update(api, item, level="Gold")
    apple = delivery(api, record["id"])
    assert apple["status"] == "pending" and apple["devices"] == 1
    assert apple["error"]["code"] == code
    sweep_later(app, 4)  # not due yet
    assert len(fake_apns.pushes_to(TABLET)) == 1
    sweep_later(app, 6)
    assert delivery(api, record["id"]) == {"status": "sent", "devices": 2, "error": None}
    assert len(fake_apns.pushes_to(PHONE)) == 1  # the phone was not pushed again
    assert len(fake_apns.pushes_to(TABLET)) == 2


def test_busy_apns_for_an_hour_fails(app: Flask, api: Api, fake_apns: Any, phone: Device,
                                     item: dict) -> None:
    fake_apns.answer(PHONE, (500, "InternalServerError"))
    record = update(api, item, level="Gold")
    for _ in range(12):
        sweep_later(app, 600)
    apple = delivery(api, record["id"])
    assert apple["status"] == "failed" and apple["error"]["code"] == "apns_unavailable"
    assert len(fake_apns.pushes_to(PHONE)) >= 3


def test_apns_unreachable_is_retried(app: Flask, api: Api, fake_apns: Any, phone: Device,
                                     item: dict) -> None:
    from webapp.wallets.apple import apns

    with app.app_context():
        app.config["APNS_URL"] = "https://127.0.0.1:9"
        record = update(api, item, level="Gold")
        assert delivery(api, record["id"])["status"] == "pending"
        app.config["APNS_URL"] = fake_apns.base
    apns.reset()
    sweep_later(app, 10)
    assert delivery(api, record["id"])["status"] == "sent"


def test_voiding_pushes(api: Api, fake_apns: Any, phone: Device, item: dict, token: str
                        ) -> None:
    assert api.delete(f"/v1/passes/{item['id']}").status_code == 200
    assert len(fake_apns.pushes_to(PHONE)) == 1
    [record] = api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"]
    assert record["kind"] == "void"
    assert record["delivery"]["apple"] == {"status": "sent", "devices": 1, "error": None}
    doc, _ = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())
    assert doc["voided"] is True
    assert not any("changeMessage" in f for group in doc["generic"].values() for f in group)


def test_erasing_pushes_the_pass_without_the_holder(api: Api, fake_apns: Any, phone: Device,
                                                    item: dict, token: str) -> None:
    """Issue 33: the device fetches the voided pass with the holder's values gone."""
    issued, _ = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())
    assert "Ada Lovelace" in str(issued)
    assert api.post(f"/v1/passes/{item['id']}/erase").status_code == 200
    assert len(fake_apns.pushes_to(PHONE)) >= 1
    records = api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"]
    assert [r["kind"] for r in records] == ["erase", "void"]
    assert records[0]["delivery"]["apple"]["status"] == "sent"
    erased, _ = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())
    assert erased["voided"] is True and "Ada Lovelace" not in str(erased)


def test_live_pass_pushes_with_the_organization_certificate(
        app: Flask, client, live_api: Api, fake_apns: Any, live_certificate: str) -> None:
    item = issue(live_api, platforms={"apple": True, "google": False})
    token = auth_token(app, item["id"])
    device = Device(client, "live-phone", PHONE)
    assert device.register(DEMO_PASS_TYPE, item["id"], token).status_code == 401
    assert device.register(pki.PASS_TYPE, item["id"], token).status_code == 201
    record = update(live_api, item, level="Gold")
    [push] = fake_apns.pushes_to(PHONE)
    assert push.topic == pki.PASS_TYPE and push.client_uid == pki.PASS_TYPE
    assert delivery(live_api, record["id"])["status"] == "sent"
    fetched = device.fetch(pki.PASS_TYPE, item["id"], token)
    assert validate.problems(fetched.get_data(), pki.make().root_pem) == []


def test_pass_not_issued_for_apple_is_skipped(api: Api, fake_apns: Any) -> None:
    item = issue(api, platforms={"apple": False, "google": True})
    record = update(api, item, level="Gold")
    assert delivery(api, record["id"]) == {"status": "skipped", "devices": 0, "error": None}
    assert fake_apns.pushes == []


def test_a_certificate_apns_does_not_trust_is_rejected(
        app: Flask, client, live_api: Api, org: dict, fake_apns: Any) -> None:
    from webapp.services.credentials import identities
    from webapp.wallets.apple import certificates

    stranger = certificates.make_demo_chain("pass.com.stranger", "STRANGER01", "Stranger Inc")
    with app.app_context():
        cert = identities.add_apple(org["id"], p12=certificates.to_p12(stranger.identity, "pw"),
                                    password="pw")
    item = issue(live_api, platforms={"apple": True, "google": False}, certificateId=cert.id)
    token = auth_token(app, item["id"])
    Device(client, "phone", PHONE).register("pass.com.stranger", item["id"], token)
    record = update(live_api, item, level="Gold")
    apple = delivery(live_api, record["id"])
    assert apple["status"] == "failed", apple
    assert apple["error"]["code"] == "apns_certificate_rejected"
    assert fake_apns.pushes == []  # refused at the TLS handshake


def test_each_apple_step_is_counted_by_its_outcome(app: Flask, api: Api, fake_apns: Any,
                                                   phone: Device, item: dict) -> None:
    from tests.support.metrics import grew, samples

    before = samples()
    fake_apns.answer(PHONE, (503, "ServiceUnavailable"), (200, None))
    record = update(api, item, level="Gold")
    assert grew(before, "pass_service_apns_pushes_total", outcome="retry") == 1
    sweep_later(app, 6)
    assert delivery(api, record["id"])["status"] == "sent"
    assert grew(before, "pass_service_apns_pushes_total", outcome="sent") == 1
    assert grew(before, "pass_service_apns_pushes_total", outcome="failed") == 0
