"""A bulk job chunk's updates pushed together (`pass_updates.push_all`): one APNs batch, a
few transactions, and for each update exactly what pushing it alone records."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.apple.conftest import DEMO_PASS_TYPE, Device, apns_overrides, auth_token, issue
from tests.apple.test_delivery import delivery, registered
from tests.conftest import Api
from webapp.db.transaction import DISPATCHER


@pytest.fixture
def extra_overrides(fake_apns: Any) -> dict[str, Any]:
    return apns_overrides(fake_apns)


def held_updates(app: Flask, api: Api, changes: list[tuple[dict, dict]]) -> list[str]:
    """Update each pass (silent) with its delivery jobs held back; the updates' IDs."""
    queue = app.extensions[DISPATCHER]
    app.extensions[DISPATCHER] = lambda task, *row_ids: None
    try:
        made = []
        for item, values in changes:
            response = api.patch(f"/v1/passes/{item['id']}", {"fieldValues": values})
            assert response.status_code == 200, response.get_json()
            made.append(response.get_json()["update"]["id"])
        return made
    finally:
        app.extensions[DISPATCHER] = queue


def push_all(app: Flask, update_ids: list[str]) -> None:
    from webapp.services.outbox import pass_updates

    with app.app_context():
        pass_updates.push_all(update_ids)


def device_on(app: Flask, client: Any, api: Api, name: str, push_token: str) -> dict:
    item = issue(api, platforms={"apple": True, "google": False})
    device = Device(client, name, push_token)
    assert device.register(DEMO_PASS_TYPE, item["id"],
                           auth_token(app, item["id"])).status_code == 201
    return item


def test_each_update_of_a_batch_gets_what_it_would_get_alone(
        app: Flask, api: Api, client: Any, fake_apns: Any) -> None:
    sent = device_on(app, client, api, "sent-phone", "1" * 64)
    gone = device_on(app, client, api, "gone-phone", "2" * 64)
    busy = device_on(app, client, api, "busy-phone", "3" * 64)
    alone = issue(api, platforms={"apple": True, "google": False})  # no device
    google = issue(api, platforms={"apple": False, "google": True})
    fake_apns.answer("2" * 64, (410, "Unregistered"))
    fake_apns.answer("3" * 64, (429, "TooManyRequests"))
    before = fake_apns.connections
    update_ids = held_updates(app, api, [(p, {"level": "Gold"})
                                         for p in (sent, gone, busy, alone, google)])
    push_all(app, update_ids)
    assert sorted(p.token for p in fake_apns.pushes) == ["1" * 64, "2" * 64, "3" * 64]
    assert fake_apns.connections - before <= 1
    sent_d, gone_d, busy_d, alone_d, google_d = (delivery(api, u) for u in update_ids)
    assert sent_d == {"status": "sent", "devices": 1, "error": None}
    assert gone_d == {"status": "no_devices", "devices": 0, "error": None}
    assert registered(app, gone["id"]) == []
    assert busy_d["status"] == "pending" and busy_d["error"]["code"] == "apns_throttled"
    assert alone_d == {"status": "no_devices", "devices": 0, "error": None}
    assert google_d == {"status": "skipped", "devices": 0, "error": None}
    delivered = api.get("/v1/events?type=pass_update.delivered&limit=100").get_json()["data"]
    # One event per update whose wallets are both final: all but the busy one (Apple
    # retries it; the Google-only one failed on Google, which has no credentials here).
    assert api.get(f"/v1/pass-updates/{update_ids[4]}").get_json()["delivery"]["google"][
        "status"] == "failed"
    assert sorted(e["data"]["object"]["id"] for e in delivered) == sorted(
        [update_ids[0], update_ids[1], update_ids[3], update_ids[4]])
    push_all(app, update_ids)  # again: nothing is pushed or emitted twice
    assert len(fake_apns.pushes_to("1" * 64)) == 1
    again = api.get("/v1/events?type=pass_update.delivered&limit=100").get_json()["data"]
    assert len(again) == len(delivered)


def test_two_updates_of_one_pass_in_a_batch_push_each_version_in_turn(
        app: Flask, api: Api, client: Any, fake_apns: Any) -> None:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import ApplePassState, AppleRegistration, PassUpdate

    item = device_on(app, client, api, "phone", "4" * 64)
    first, second = held_updates(app, api, [(item, {"level": "Gold"}),
                                            (item, {"level": "Silver"})])
    push_all(app, [first, second])
    assert len(fake_apns.pushes_to("4" * 64)) == 2
    assert delivery(api, first) == {"status": "sent", "devices": 1, "error": None}
    assert delivery(api, second) == {"status": "sent", "devices": 1, "error": None}
    with app.app_context():
        pushed = db.session.scalar(select(AppleRegistration.pushed_version))
        version = db.session.scalar(select(ApplePassState.version))
        last = db.session.scalar(select(PassUpdate.pass_version).where(PassUpdate.id == second))
    assert pushed == version == last


def test_a_batch_draws_one_tag_per_pass_in_order(app: Flask, api: Api, client: Any,
                                                  fake_apns: Any) -> None:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import ApplePassState

    items = [device_on(app, client, api, f"phone-{n}", f"{n + 5:064x}") for n in range(4)]
    update_ids = held_updates(app, api, [(p, {"level": "Gold"}) for p in items])
    with app.app_context():
        before = {s.pass_id: s.tag for s in db.session.scalars(select(ApplePassState))}
    push_all(app, update_ids)
    with app.app_context():
        after = {s.pass_id: s.tag for s in db.session.scalars(select(ApplePassState))}
    tags = [after[p["id"]] for p in items]
    assert tags == sorted(tags) and len(set(tags)) == 4
    assert min(tags) > max(before.values(), default=0)
    assert tags == list(range(tags[0], tags[0] + 4))
