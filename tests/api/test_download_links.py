"""Download links (decisions.md section 9) and the holder pages they lead to."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.api.factories import template_body
from tests.conftest import BASE_URL, Api, assert_error
from webapp import clock

LINK_KEYS = {"object", "id", "passId", "url", "expiresAt", "revokedAt", "createdAt"}


@pytest.fixture
def issued(api: Api) -> dict:
    t = api.post("/v1/templates", template_body()).get_json()
    return api.post("/v1/passes", {"templateId": t["id"], "holderName": "Ada <b>L</b>",
                                   "fieldValues": {"member": "<script>alert(1)</script>"}
                                   }).get_json()


def _token(link: dict) -> str:
    return link["url"].rsplit("/", 1)[1]


def test_create_returns_url_once(api: Api, issued: dict) -> None:
    start = clock.now()
    clock.set_now(lambda: start)
    response = api.post(f"/v1/passes/{issued['id']}/download-links")
    assert response.status_code == 201
    link = response.get_json()
    assert set(link) == LINK_KEYS
    assert link["object"] == "download_link" and link["id"].startswith("dlink_")
    assert link["passId"] == issued["id"] and link["revokedAt"] is None
    assert link["url"].startswith(f"{BASE_URL}/d/")
    assert len(_token(link)) >= 32  # 192 random bits, base64url
    assert link["expiresAt"] == clock.isoformat(start + timedelta(seconds=3600))
    listing = api.get(f"/v1/passes/{issued['id']}/download-links").get_json()
    assert listing["data"] == [{k: v for k, v in link.items() if k != "url"}]


@pytest.mark.parametrize("seconds", [60, 604800])
def test_lifetime_bounds_are_accepted(api: Api, issued: dict, seconds: int) -> None:
    response = api.post(f"/v1/passes/{issued['id']}/download-links",
                        {"expiresInSeconds": seconds})
    assert response.status_code == 201


@pytest.mark.parametrize("value", [59, 604801, 0, -5, 3600.0, "3600", True, None])
def test_lifetime_out_of_range_is_400(api: Api, issued: dict, value: object) -> None:
    response = api.post(f"/v1/passes/{issued['id']}/download-links", {"expiresInSeconds": value})
    assert_error(response, 400, "invalid_request_error", param="expiresInSeconds")


def test_unknown_member_is_400(api: Api, issued: dict) -> None:
    response = api.post(f"/v1/passes/{issued['id']}/download-links", {"ttl": 60})
    assert_error(response, 400, "invalid_request_error", "parameter_unknown", "ttl")


def test_voided_pass_gets_no_link(api: Api, issued: dict) -> None:
    api.delete(f"/v1/passes/{issued['id']}")
    response = api.post(f"/v1/passes/{issued['id']}/download-links")
    assert_error(response, 400, "invalid_request_error", "pass_voided")


def test_tokens_are_stored_hashed(app, api: Api, issued: dict) -> None:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import DownloadLink

    link = api.post(f"/v1/passes/{issued['id']}/download-links").get_json()
    with app.app_context():
        stored = db.session.scalar(select(DownloadLink).where(DownloadLink.id == link["id"]))
        assert _token(link) not in (stored.token_hash, stored.id)
        assert len(stored.token_hash) == 64


def test_link_shows_the_holder_page(client, api: Api, issued: dict) -> None:
    link = api.post(f"/v1/passes/{issued['id']}/download-links").get_json()
    page = client.get(f"/d/{_token(link)}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    # The holder's name is shown only where the template puts it (as the wallets do): never raw.
    assert "<b>" not in html
    assert "Acme Gym" in html and "#112233" in html
    assert page.headers["Cache-Control"] == "no-store"
    assert page.headers["Referrer-Policy"] == "no-referrer"
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    permanent = client.get(f"/p/{issued['shortId']}")
    assert permanent.status_code == 200 and "Acme Gym" in permanent.get_data(as_text=True)


def test_expired_link_is_410(client, api: Api, issued: dict) -> None:
    start = clock.now()
    clock.set_now(lambda: start)
    link = api.post(f"/v1/passes/{issued['id']}/download-links",
                    {"expiresInSeconds": 60}).get_json()
    assert client.get(f"/d/{_token(link)}").status_code == 200
    clock.set_now(lambda: start + timedelta(seconds=60))
    page = client.get(f"/d/{_token(link)}")
    assert page.status_code == 410
    assert "expired" in page.get_data(as_text=True)
    assert "Ada" not in page.get_data(as_text=True)


def test_revoke(client, api: Api, issued: dict) -> None:
    link = api.post(f"/v1/passes/{issued['id']}/download-links").get_json()
    response = api.delete(f"/v1/download-links/{link['id']}")
    assert response.status_code == 204 and response.get_data() == b""
    assert api.delete(f"/v1/download-links/{link['id']}").status_code == 204  # again: fine
    page = client.get(f"/d/{_token(link)}")
    assert page.status_code == 410 and "Ada" not in page.get_data(as_text=True)
    listed = api.get(f"/v1/passes/{issued['id']}/download-links").get_json()["data"][0]
    assert listed["revokedAt"] is not None


def test_revoke_expired_is_204(api: Api, issued: dict) -> None:
    start = clock.now()
    clock.set_now(lambda: start)
    link = api.post(f"/v1/passes/{issued['id']}/download-links",
                    {"expiresInSeconds": 60}).get_json()
    clock.set_now(lambda: start + timedelta(hours=1))
    assert api.delete(f"/v1/download-links/{link['id']}").status_code == 204


def test_revoke_unknown_or_foreign_is_404(api: Api, live_api: Api, other_api: Api,
                                          issued: dict) -> None:
    link = api.post(f"/v1/passes/{issued['id']}/download-links").get_json()
    assert_error(api.delete("/v1/download-links/dlink_nope"), 404, "not_found_error")
    assert_error(live_api.delete(f"/v1/download-links/{link['id']}"), 404, "not_found_error")
    assert_error(other_api.delete(f"/v1/download-links/{link['id']}"), 404, "not_found_error")


def test_voided_pass_pages_are_410(client, api: Api, issued: dict) -> None:
    link = api.post(f"/v1/passes/{issued['id']}/download-links").get_json()
    api.delete(f"/v1/passes/{issued['id']}")
    for path in (f"/p/{issued['shortId']}", f"/d/{_token(link)}"):
        page = client.get(path)
        assert page.status_code == 410
        html = page.get_data(as_text=True)
        assert "no longer valid" in html and "Ada" not in html
        assert "<p>Acme Gym has cancelled it." in html  # whom to ask, nothing else


def test_unknown_pages_are_404(client) -> None:
    assert client.get("/p/AAAAAAAAAAAA").status_code == 404
    assert client.get("/p/short").status_code == 404
    assert client.get("/d/" + "x" * 40).status_code == 404
    assert client.get("/d/x").status_code == 404
