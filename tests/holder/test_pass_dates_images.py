"""The holder page of a pass with its own expiry or images: an expired pass says so on its
card (still addable: the issuer may extend it, and the wallets then show it valid again),
and the pass's own picture is drawn over the template's."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from tests.api.factories import template_body
from tests.conftest import Api
from tests.holder.conftest import IPHONE, issue
from webapp import clock

PAST = "2026-01-01T00:00:00Z"
FUTURE = "2030-01-01T00:00:00+01:00"
STAMP = '<p class="pp-state">Expired</p>'


def page(client: Any, item: dict[str, Any]) -> Any:
    return client.get(f"/p/{item['shortId']}", headers={"User-Agent": IPHONE})


def test_a_pass_past_its_own_expiry_shows_expired(client: Any, api: Api) -> None:
    item = issue(api, holderName="Ada", expiresAt=PAST)
    response = page(client, item)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert STAMP in html
    assert "pp-expired" in html and "pp-active" not in html
    assert 'data-wallet="apple"' in html and 'data-wallet="google"' in html


def test_an_own_future_expiry_overrides_the_templates_past_one(client: Any,
                                                               api: Api) -> None:
    item = issue(api, template=template_body(expiresAt=PAST), expiresAt=FUTURE)
    html = page(client, item).get_data(as_text=True)
    assert STAMP not in html and "pp-active" in html
    cleared = api.patch(f"/v1/passes/{item['id']}", {"expiresAt": None})
    assert cleared.status_code == 200
    assert STAMP in page(client, item).get_data(as_text=True)


def test_the_page_turns_expired_when_the_moment_passes(client: Any, api: Api) -> None:
    item = issue(api, expiresAt=FUTURE)
    assert STAMP not in page(client, item).get_data(as_text=True)
    later = clock.now().replace(year=2030) + timedelta(days=2)
    clock.set_now(lambda: later)
    assert STAMP in page(client, item).get_data(as_text=True)


def test_a_voided_pass_is_gone_not_expired(client: Any, api: Api) -> None:
    item = issue(api, expiresAt=PAST)
    assert api.delete(f"/v1/passes/{item['id']}").status_code == 200
    response = page(client, item)
    assert response.status_code == 410 and STAMP not in response.get_data(as_text=True)


def test_the_pass_s_own_thumbnail_is_drawn(client: Any, api: Api, png: Any) -> None:
    item = issue(api, holderName="Ada")
    asset = api.post("/v1/assets", {"slot": "thumbnail", "data": png(90, 120)}).get_json()
    response = api.request("PUT", f"/v1/passes/{item['id']}/images/thumbnail",
                           {"assetId": asset["id"]},
                           headers={"Idempotency-Key": str(uuid.uuid4())})
    assert response.status_code == 200
    html = page(client, item).get_data(as_text=True)
    assert (f'<img class="thumbnail" src="/assets/{asset["id"]}" width="90" height="120"'
            in html)
