"""A redemption reaches the wallets (issue 18): the pass gets a "Checked in" back field (Apple)
or text module (Google), pushed like any update; a single-use pass that voids on check-in
arrives voided."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.apple import validate
from tests.apple.conftest import DEMO_PASS_TYPE, Device, apns_overrides, auth_token, issue
from tests.apple.conftest import make_template as apple_template
from tests.conftest import Api

PHONE = "c" * 64


@pytest.fixture
def extra_overrides(fake_apns: Any) -> dict[str, Any]:
    return apns_overrides(fake_apns)


def _ticket(api: Api, **redemption: Any) -> dict[str, Any]:
    return issue(api, apple_template(api, redemption={"mode": "single", **redemption}))


def _registered(app: Flask, client: Any, item: dict[str, Any]) -> tuple[Device, str]:
    token = auth_token(app, item["id"])
    phone = Device(client, "phone-checkin", PHONE)
    assert phone.register(DEMO_PASS_TYPE, item["id"], token).status_code == 201
    assert phone.fetch(DEMO_PASS_TYPE, item["id"], token).status_code == 200
    return phone, token


def _seconds(stamp: str) -> str:
    """`2026-11-25T19:02:11.123Z` as pass.json writes it: `2026-11-25T19:02:11Z`."""
    return stamp[:19] + "Z"


def test_a_redemption_is_pushed_and_the_pass_shows_when_it_was_checked_in(
        app: Flask, client: Any, api: Api, fake_apns: Any) -> None:
    item = _ticket(api)
    phone, token = _registered(app, client, item)
    before, _ = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token,
                                          conditional=False).get_data())
    assert not any(f["key"] == "redemption.checkedIn"
                   for f in before["generic"].get("backFields", []))

    redeemed = api.post(f"/v1/passes/{item['id']}/redemptions", {"location": "Gate B"})
    assert redeemed.status_code == 201
    assert len(fake_apns.pushes_to(PHONE)) == 1
    fetched = phone.fetch(DEMO_PASS_TYPE, item["id"], token)
    assert fetched.status_code == 200
    assert validate.problems(fetched.get_data(), None) == []
    doc, _ = validate.read(fetched.get_data())
    assert doc["generic"]["backFields"][-1] == {
        "key": "redemption.checkedIn", "label": "Checked in",
        "value": _seconds(redeemed.get_json()["redeemedAt"]),
        "dateStyle": "PKDateStyleMedium", "timeStyle": "PKDateStyleShort"}
    assert "voided" not in doc
    [update] = api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"]
    assert update["delivery"]["apple"] == {"status": "delivered", "devices": 1, "error": None}


def test_void_on_redemption_pushes_a_voided_pass(app: Flask, client: Any, api: Api,
                                                 fake_apns: Any) -> None:
    item = _ticket(api, voidOnRedemption=True)
    phone, token = _registered(app, client, item)
    assert api.post(f"/v1/passes/{item['id']}/redemptions").status_code == 201
    assert len(fake_apns.pushes_to(PHONE)) == 1
    doc, _ = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())
    assert doc["voided"] is True
    assert doc["generic"]["backFields"][-1]["key"] == "redemption.checkedIn"


def test_the_google_object_shows_when_the_pass_was_checked_in(app: Flask, api: Api) -> None:
    from webapp.extensions import db
    from webapp.models import Pass
    from webapp.services.google import sync
    from webapp.services.templates import revisions

    item = _ticket(api)
    redeemed = api.post(f"/v1/passes/{item['id']}/redemptions").get_json()
    with app.app_context():
        row = db.session.get(Pass, item["id"])
        assert row is not None
        definition = revisions.definition_of(row.template_id, row.template_revision) or {}
        body = sync.object_body(row, definition, "issuer.class", "issuer.object")
    stamp = redeemed["redeemedAt"]
    assert body["textModulesData"][-1] == {
        "id": "checked-in", "header": "Checked in",
        "body": f"{stamp[:10]} {stamp[11:16]} UTC"}
