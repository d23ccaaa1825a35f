"""The holder pages `/p/<shortId>` and `/d/<token>`: card, buttons by device, states."""

from __future__ import annotations

import base64
import hashlib
import re
from datetime import timedelta

import pytest

from tests.api.factories import template_body
from tests.conftest import BASE_URL, Api
from tests.holder.conftest import ANDROID, DESKTOP, IPAD, IPHONE, issue, meta, wallets_in_order
from webapp import clock


def _get(client, path: str, agent: str = DESKTOP, language: str = "en"):
    return client.get(path, headers={"User-Agent": agent, "Accept-Language": language})


def test_active_page_draws_the_card(client, issued: dict) -> None:
    response = _get(client, f"/p/{issued['shortId']}")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "<h1 id=\"heading\">Gym membership</h1>" in html
    assert '<p class="eyebrow">Acme Gym</p>' in html
    assert "<dt>Member</dt><dd>Ada Lovelace</dd>" in html
    assert "<dt>Club</dt><dd>Downtown</dd>" in html  # a shared field's fixed value
    assert html.count("Ada Lovelace") == 1  # the holder's name once: no extra "Name" row
    assert "<dt>Name</dt>" not in html
    assert "<dt>Level</dt>" not in html  # an empty optional field is left out
    assert "--card-bg:#112233;--card-fg:#ffffff;--card-label:#ffffff" in html
    assert 'href="/static/holder/holder.css?v=' in html


def test_short_id_is_case_insensitive(client, issued: dict) -> None:
    assert _get(client, f"/p/{issued['shortId'].lower()}").status_code == 200


def test_page_uses_the_pass_revision_not_the_latest(client, api: Api, issued: dict) -> None:
    template = api.get(f"/v1/templates/{issued['templateId']}").get_json()
    changed = dict(template["definition"], description="Gold membership",
                   colors={"background": "#445566", "foreground": "#000000"})
    updated = api.patch(f"/v1/templates/{issued['templateId']}",
                        {"expectedRevision": template["revision"], "definition": changed})
    assert updated.status_code == 200
    html = _get(client, f"/p/{issued['shortId']}").get_data(as_text=True)
    assert "Gym membership" in html and "Gold membership" not in html
    assert "#112233" in html and "#445566" not in html


@pytest.mark.parametrize(("agent", "expected"), [
    (IPHONE, ["apple", "google"]), (IPAD, ["apple", "google"]),
    (ANDROID, ["google", "apple"]), (DESKTOP, ["apple", "google"]), ("", ["apple", "google"]),
])
def test_button_order_follows_the_device(client, issued: dict, agent: str,
                                         expected: list[str]) -> None:
    html = _get(client, f"/p/{issued['shortId']}", agent).get_data(as_text=True)
    assert wallets_in_order(html) == expected


def test_buttons_point_at_the_wallet_routes(client, issued: dict, link) -> None:
    short = issued["shortId"]
    html = _get(client, f"/p/{short}").get_data(as_text=True)
    assert f'href="/p/{short}/apple.pkpass"' in html
    assert f'href="/p/{short}/google"' in html
    path = link(issued)
    html = _get(client, path).get_data(as_text=True)
    assert f'href="{path}/apple.pkpass"' in html and f'href="{path}/google"' in html
    assert short not in html  # a download link does not give away the permanent one


def test_desktop_shows_a_qr_code_of_the_page_phones_do_not(client, issued: dict) -> None:
    desktop = _get(client, f"/p/{issued['shortId']}").get_data(as_text=True)
    assert "Scan with your phone" in desktop
    assert re.search(r'<div class="scan-code"><svg [^>]*viewBox="0 0 (\d+) \1"', desktop)
    for agent in (IPHONE, ANDROID):
        html = _get(client, f"/p/{issued['shortId']}", agent).get_data(as_text=True)
        assert "scan-code" not in html and "Scan with your phone" not in html


@pytest.mark.parametrize(("platforms", "expected"), [
    ({"apple": True, "google": False}, ["apple"]),
    ({"apple": False, "google": True}, ["google"]),
])
def test_only_wallets_the_pass_was_issued_for(client, api: Api, platforms: dict,
                                              expected: list[str]) -> None:
    item = issue(api, platforms=platforms)
    for agent in (IPHONE, ANDROID, DESKTOP):
        html = _get(client, f"/p/{item['shortId']}", agent).get_data(as_text=True)
        assert wallets_in_order(html) == expected
        hrefs = {"apple": "/apple.pkpass\"", "google": "/google\""}
        assert all((hrefs[w] in html) == (w in expected) for w in hrefs)


def test_expired_certificate_makes_apple_unavailable(client, live_api: Api, org: dict,
                                                     app) -> None:
    from tests.support import pki
    from webapp.services.credentials import identities

    with app.app_context():
        cert = identities.add_apple(org["id"], p12=pki.make().p12, password="secret")
        expires = cert.expires_at
    item = issue(live_api, template=template_body(platforms={"apple": True, "google": False}))
    assert wallets_in_order(_get(client, f"/p/{item['shortId']}").get_data(as_text=True)) \
        == ["apple"]
    clock.set_now(lambda: expires + timedelta(days=1))
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert wallets_in_order(html) == []
    assert "Apple Wallet is not available for this pass right now" in html


def test_voided_pass_is_410_on_every_link_and_names_its_issuer(client, api: Api,
                                                               issued: dict, link) -> None:
    path = link(issued)
    api.delete(f"/v1/passes/{issued['id']}")
    short = f"/p/{issued['shortId']}"
    for url in (short, path, f"{short}/google", f"{path}/google", f"{short}/apple.pkpass",
                f"{path}/apple.pkpass"):
        response = _get(client, url)
        assert response.status_code == 410, url
        html = response.get_data(as_text=True)
        assert "This pass is no longer valid" in html
        # Whom to ask, as the pass named it; nothing else of the pass.
        assert ("<p>Acme Gym has cancelled it. If you think this is a mistake, contact "
                "them.</p>") in html, url
        _assert_no_pass_data(html.replace("Acme Gym has cancelled", ""), issued)
    german = _get(client, short, language="de").get_data(as_text=True)
    assert "Acme Gym hat ihn storniert." in german


def test_an_expired_link_names_no_issuer(client, issued: dict, link) -> None:
    start = clock.now()
    clock.set_now(lambda: start)
    path = link(issued, 60)
    clock.set_now(lambda: start + timedelta(seconds=61))
    html = _get(client, path).get_data(as_text=True)
    assert "Acme" not in html and "has cancelled" not in html


def test_expired_link_is_410_and_the_permanent_page_still_works(client, issued: dict,
                                                               link) -> None:
    start = clock.now()
    clock.set_now(lambda: start)
    path = link(issued, 60)
    clock.set_now(lambda: start + timedelta(seconds=61))
    response = _get(client, path)
    assert response.status_code == 410
    html = response.get_data(as_text=True)
    assert "This link has expired" in html
    _assert_no_pass_data(html, issued)
    assert response.headers["Cache-Control"] == "no-store"
    assert _get(client, f"/p/{issued['shortId']}").status_code == 200


def test_revoked_link_is_410(client, api: Api, issued: dict, link) -> None:
    path = link(issued)
    link_id = api.get(f"/v1/passes/{issued['id']}/download-links").get_json()["data"][0]["id"]
    api.delete(f"/v1/download-links/{link_id}")
    response = _get(client, path)
    assert response.status_code == 410
    html = response.get_data(as_text=True)
    assert "This link is no longer valid" in html
    _assert_no_pass_data(html, issued)


@pytest.mark.parametrize("path", [
    "/p/AAAAAAAAAAAA", "/p/short", "/p/" + "A" * 13, "/p/%C3%84AAAAAAAAAAA", "/d/x",
    "/d/" + "x" * 40, "/d/" + "x" * 200,
])
def test_unknown_pages_are_404_pages(client, path: str) -> None:
    response = _get(client, path)
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "Pass not found" in html and '<html lang="en">' in html
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]


def _assert_no_pass_data(html: str, item: dict) -> None:
    for secret in ("Ada", "Acme", "Gym", "Downtown", item["shortId"], "#112233", "og:image",
                   "wallet-button", "<svg viewBox=\"0 0 32"):
        assert secret not in html, secret


def test_security_headers(client, issued: dict, link) -> None:
    permanent = _get(client, f"/p/{issued['shortId']}")
    private = _get(client, link(issued))
    for response in (permanent, private):
        csp = response.headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp and "script-src" not in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        html = response.get_data(as_text=True)
        assert '<meta name="robots" content="noindex, nofollow">' in html
        assert "<script" not in html and " style=" not in html
    assert private.headers["Cache-Control"] == "no-store"
    assert "no-store" not in permanent.headers["Cache-Control"]
    assert "private" in permanent.headers["Cache-Control"]


def test_the_only_inline_style_is_allowed_by_its_hash(client, issued: dict) -> None:
    response = _get(client, f"/p/{issued['shortId']}")
    blocks = re.findall(r"<style>(.*?)</style>", response.get_data(as_text=True), re.S)
    assert len(blocks) == 1
    digest = base64.b64encode(hashlib.sha256(blocks[0].encode()).digest()).decode()
    assert f"style-src 'self' 'sha256-{digest}';" in response.headers["Content-Security-Policy"]


HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>'


def test_holder_and_template_data_are_escaped_everywhere(client, api: Api, png) -> None:
    logo = api.post("/v1/assets", {"slot": "logo", "data": png(160, 50)}).get_json()["id"]
    body = template_body(organizationName=HOSTILE[:64], description=HOSTILE, logoText=HOSTILE[:64],
                         images={"logo": logo},
                         barcode={"format": "qr", "altText": HOSTILE})
    body["definition"]["config"]["fields"]["primary"][0]["label"] = HOSTILE[:64]
    body["definition"]["config"]["fields"]["back"] = [
        {"key": "terms", "label": "Terms", "binding": "perPass"}]
    item = issue(api, template=body, holderName=HOSTILE,
                 fieldValues={"member": HOSTILE, "level": HOSTILE, "terms": HOSTILE})
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert "<script" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;&gt;&lt;script&gt;" in html  # inside attributes (og:title, alt) too


def test_open_graph_shows_no_more_than_the_page(client, api: Api, png) -> None:
    strip = api.post("/v1/assets", {"slot": "strip", "data": png(375, 123)}).get_json()
    item = issue(api, template=template_body(images={"strip": strip["id"]}),
                 holderName="Ada Lovelace", fieldValues={"member": "M-12345"})
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert meta(html, "og:title") == "Gym membership · Acme Gym"
    assert meta(html, "og:description") == "Add this pass to your phone\u2019s wallet."
    assert meta(html, "og:image") == f"{BASE_URL}/assets/{strip['id']}"
    assert meta(html, "og:image:width") == "375" and meta(html, "og:image:height") == "123"
    assert meta(html, "og:url") == f"{BASE_URL}/p/{item['shortId']}"
    assert meta(html, "og:locale") == "en_US"
    head = html.split("</head>")[0]
    assert "Ada" not in head and "M-12345" not in head


def test_open_graph_of_a_download_link_has_no_url(client, issued: dict, link) -> None:
    html = _get(client, link(issued)).get_data(as_text=True)
    assert meta(html, "og:title") == "Gym membership · Acme Gym"
    assert meta(html, "og:url") is None and meta(html, "og:image") is None


def test_images_use_public_asset_urls_with_their_size(client, api: Api, png) -> None:
    ids = {slot: api.post("/v1/assets", {"slot": slot, "data": png(w, h)}).get_json()["id"]
           for slot, w, h in (("logo", 160, 50), ("strip", 375, 123), ("thumbnail", 90, 90))}
    item = issue(api, template=template_body(images=ids))
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert f'<img class="logo" src="/assets/{ids["logo"]}" width="160" height="50"' in html
    assert f'<img class="thumbnail" src="/assets/{ids["thumbnail"]}" width="90"' in html
    # Apple's generic style has no strip (the .pkpass leaves it out): Google shows it, as
    # its hero image.
    assert 'class="strip"' not in html
    android = _get(client, f"/p/{item['shortId']}", ANDROID).get_data(as_text=True)
    assert f'<img class="pp-hero" src="/assets/{ids["strip"]}" width="375" height="123"' \
        in android
    assert client.get(f"/assets/{ids['strip']}").status_code == 200


def test_hero_image_is_drawn_on_the_google_card(client, api: Api, png) -> None:
    hero = api.post("/v1/assets", {"slot": "hero", "data": png(1032, 336)}).get_json()["id"]
    item = issue(api, template=template_body(images={"hero": hero}))
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert f'src="/assets/{hero}"' not in html  # Apple Wallet shows no hero image
    android = _get(client, f"/p/{item['shortId']}", ANDROID).get_data(as_text=True)
    assert f'<img class="pp-hero" src="/assets/{hero}"' in android  # Google's card does


def test_event_ticket_shows_the_event_in_its_own_time(client, api: Api) -> None:
    body = template_body("event", event={
        "name": "The Show", "venue": {"name": "Hall", "address": "1 Main St"},
        "startsAt": "2027-01-01T20:00:00+01:00", "doorsOpenAt": "2027-01-01T19:00:00+01:00"})
    item = issue(api, template=body, fieldValues={"seat": "A12"}, barcodeValue="TICKET-1")
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert '<p class="event-name">The Show</p>' in html
    assert "Fri, Jan 1, 2027, 8:00\u202fPM" in html  # 20:00 at +01:00, not converted to UTC
    assert "Hall, 1 Main St" in html and "<dt>Seat</dt><dd>A12</dd>" in html
    assert "<figcaption>TICKET-1</figcaption>" in html
    german = _get(client, f"/p/{item['shortId']}", language="de").get_data(as_text=True)
    assert "Fr., 1. Jan. 2027, 20:00" in german and "Einlass" in german


def test_dates_and_numbers_are_localized(client, api: Api) -> None:
    body = template_body()
    body["definition"]["config"]["fields"]["auxiliary"] = [
        {"key": "since", "label": "Since", "binding": "perPass", "format": "date"},
        {"key": "points", "label": "Points", "binding": "perPass", "format": "number"}]
    item = issue(api, template=body,
                 fieldValues={"member": "Ada", "since": "2026-03-14", "points": 12345.5})
    english = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert "<dd>March 14, 2026</dd>" in english and "<dd>12,345.5</dd>" in english
    german = _get(client, f"/p/{item['shortId']}", language="de-DE").get_data(as_text=True)
    assert "<dd>14. März 2026</dd>" in german and "<dd>12.345,5</dd>" in german


def test_back_fields_are_in_a_details_element(client, api: Api) -> None:
    body = template_body()
    body["definition"]["config"]["fields"]["back"] = [
        {"key": "terms", "label": "Terms", "binding": "shared", "value": "Be nice.\nNo pets."}]
    item = issue(api, template=body)
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert "<summary>More details</summary>" in html
    assert "<dt>Terms</dt><dd>Be nice.\nNo pets.</dd>" in html


@pytest.mark.parametrize("format_", ["qr", "pdf417", "aztec", "code128"])
def test_every_barcode_format_is_drawn_as_svg(client, api: Api, format_: str) -> None:
    item = issue(api, template=template_body(barcode={"format": format_}))
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    figure = re.search(r'<figure class="barcode barcode-(\w+)">(.*?)</figure>', html, re.S)
    assert figure is not None and figure.group(1) == format_
    assert '<div class="symbol"><svg xmlns="http://www.w3.org/2000/svg"' in figure.group(2)
    assert f"<figcaption>{item['shortId']}</figcaption>" in figure.group(2)


def test_a_message_code128_cannot_carry_shows_as_text(client, api: Api) -> None:
    item = issue(api, template=template_body(barcode={"format": "code128", "perPass": True}),
                 barcodeValue="Müller-7")
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert '<div class="symbol">' not in html
    assert "<figcaption>Müller-7</figcaption>" in html


def test_alt_text_is_shown_under_the_barcode(client, api: Api) -> None:
    body = template_body(barcode={"format": "qr", "altText": "No. {{shortId}}"})
    item = issue(api, template=body)
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert f"<figcaption>No. {item['shortId']}</figcaption>" in html


def test_page_without_barcode_or_holder(client, api: Api) -> None:
    item = issue(api)
    html = _get(client, f"/p/{item['shortId']}").get_data(as_text=True)
    assert "<figure" not in html and "<dt>Name</dt>" not in html


def test_google_without_usable_credentials_is_unavailable(database, database_url,
                                                          tmp_path) -> None:
    """A bare install has no Google issuer Google knows: no button that would fail."""
    from tests.conftest import Api, base_overrides
    from webapp import create_app
    from webapp.services.accounts import organizations

    overrides = {**base_overrides(tmp_path, database_url), "JOBS_SYNCHRONOUS": True}
    bare = create_app(overrides)
    with bare.app_context():
        created = organizations.create("Bare", "o@bare.test", "correct horse battery")
    client = bare.test_client()
    item = issue(Api(client, created.keys["test"]))
    html = _get(client, f"/p/{item['shortId']}", ANDROID).get_data(as_text=True)
    assert wallets_in_order(html) == ["apple"]
    assert "Google Wallet is not available for this pass right now" in html
    with bare.app_context():
        from webapp.extensions import db

        db.engine.dispose()
