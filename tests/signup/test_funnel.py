"""The sign-up funnel's last step: a pass from a sign-up page added to a wallet (an Apple
device registering through the Wallet web service) counts in `signupsAdded`; a pass issued
through the API does not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.apple import conftest as apple_fixtures
from tests.apple.conftest import DEMO_PASS_TYPE, Device, apns_overrides, apple_overrides, auth_token
from tests.conftest import Api, app_with
from tests.signup.conftest import Visitor, path_of, signup_template

fake_apns_server = apple_fixtures.fake_apns_server
fake_apns = apple_fixtures.fake_apns


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path, fake_apns: Any
        ) -> Iterator[Flask]:
    yield from app_with(database, database_url, tmp_path,
                        {**apple_overrides(), **apns_overrides(fake_apns)})


def test_a_signed_up_pass_added_to_a_wallet_is_counted(api: Api, app: Flask,
                                                       client: Any) -> None:
    template = signup_template(api)
    assert Visitor(app.test_client(), path_of(template)).submit().status_code == 303
    signed_up = api.get("/v1/passes?source=enrollment").get_json()["data"][0]
    other = api.post("/v1/passes", {"templateId": template["id"],
                                    "fieldValues": {"member": "Bo"}}).get_json()
    for n, item in enumerate((signed_up, other)):
        device = Device(client, f"device-{n}", f"{n}" * 64)
        assert device.register(DEMO_PASS_TYPE, item["id"],
                               auth_token(app, item["id"])).status_code == 201
    totals = api.get(f"/v1/insights?templateId={template['id']}").get_json()["totals"]
    assert (totals["signupPageViews"], totals["signups"], totals["signupsAdded"],
            totals["added"], totals["issued"]) == (1, 1, 1, 2, 2)
    assert totals["byPlatform"]["apple"]["signupsAdded"] == 1
