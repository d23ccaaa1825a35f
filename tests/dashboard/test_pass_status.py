"""Status that tells the truth: the passes list's wallet column shows where each pass is
installed, and a delivery's badges ask again only while the delivery is unsettled."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.apple.conftest import apple_overrides
from tests.conftest import Api, app_with
from tests.dashboard.conftest import Dash, text
from tests.dashboard.test_update_notices import _issue, _register_iphone, _template


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """The demo Apple identity configured; jobs run in the request; pushes go to a closed
    local port (the Apple step stays pending)."""
    yield from app_with(database, database_url, tmp_path, apple_overrides())


def _wallets_cell(page: str, short_id: str) -> str:
    row = re.search(rf"<tr [^>]*>(?:(?!</tr>).)*{short_id}(?:(?!</tr>).)*</tr>", page, re.S)
    assert row, short_id
    cell = re.search(r'class="wallets"><div class="cell">(.*?)</div></td>', row.group(0), re.S)
    assert cell
    return " ".join(re.sub(r"<[^>]+>", " ", cell.group(1)).split())


def test_the_wallet_column_shows_where_each_pass_is(app: Flask, client: Any, dash: Dash,
                                                    api: Api) -> None:
    template_id = _template(api)
    installed, other = _issue(api, template_id), _issue(api, template_id)
    _register_iphone(app, client, installed)
    apple_only = api.post("/v1/passes", {
        "templateId": template_id, "platforms": {"apple": True, "google": False},
        "fieldValues": {"member": "Bo"}}).get_json()
    page = text(dash.get("/dashboard/test/passes"))
    short = {p["id"]: p["shortId"] for p in api.get("/v1/passes").get_json()["data"]}
    assert _wallets_cell(page, short[installed]) == "Apple: on 1 device Google: not saved"
    assert _wallets_cell(page, short[other]) == "Apple: not added Google: not saved"
    assert _wallets_cell(page, apple_only["shortId"]) == "Apple: not added"


def test_the_google_column_follows_the_holders_save(app: Flask, dash: Dash, api: Api) -> None:
    from webapp.db.transaction import transaction
    from webapp.models import GoogleObject

    pass_id = _issue(api, _template(api))
    short_id = api.get(f"/v1/passes/{pass_id}").get_json()["shortId"]
    for state, shown in (("saved", "Google: saved"), ("removed", "Google: removed")):
        with app.app_context(), transaction() as session:
            session.get(GoogleObject, pass_id).wallet_state = state
        page = text(dash.get("/dashboard/test/passes"))
        assert _wallets_cell(page, short_id) == f"Apple: not added {shown}"


def test_delivery_badges_ask_again_until_settled(app: Flask, client: Any, dash: Dash,
                                                 api: Api) -> None:
    from webapp.db.transaction import transaction
    from webapp.models import PassUpdate

    pass_id = _issue(api, _template(api))
    _register_iphone(app, client, pass_id)  # the push fails (closed port): Apple is pending
    dash.post(f"/dashboard/test/passes/{pass_id}/edit",
              {"fv-member": "Ada", "fv-level": "Platinum"})
    update = api.get(f"/v1/passes/{pass_id}/updates").get_json()["data"][0]
    url = f"/dashboard/test/passes/{pass_id}/updates/{update['id']}/delivery"
    pending = dash.get(url, headers={"HX-Request": "true"})
    assert pending.status_code == 200
    assert (f'<div class="deliveries" id="delivery-{update["id"]}" hx-get="{url}" '
            'hx-trigger="every 2s" hx-swap="outerHTML">') in text(pending)
    assert "Apple: pending" in text(pending)
    assert f'hx-get="{url}"' in text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    with app.app_context(), transaction() as session:
        record = session.get(PassUpdate, update["id"])
        record.apple_status, record.delivery_state = "delivered", "done"
    settled = text(dash.get(url, headers={"HX-Request": "true"}))
    assert f'<div class="deliveries" id="delivery-{update["id"]}">' in settled
    assert "Apple: delivered" in settled and "hx-get" not in settled


def test_a_delivery_of_another_pass_is_404(app: Flask, dash: Dash, api: Api) -> None:
    template_id = _template(api)
    first, second = _issue(api, template_id), _issue(api, template_id)
    dash.post(f"/dashboard/test/passes/{first}/edit", {"fv-member": "Ada", "fv-level": "X"})
    update = api.get(f"/v1/passes/{first}/updates").get_json()["data"][0]
    assert dash.get(f"/dashboard/test/passes/{second}/updates/{update['id']}/delivery"
                    ).status_code == 404
    assert dash.get(f"/dashboard/test/passes/{first}/updates/pupd_nope/delivery"
                    ).status_code == 404
