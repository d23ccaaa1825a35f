"""GET /p/<shortId>/google and /d/<token>/google: a 302 to Google's save page with a
reference JWT; 410 for voided passes and dead links; 404 for unknown ones."""

from __future__ import annotations

import base64
import json
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle
from webapp import clock
from webapp.db.transaction import DISPATCHER


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    return api.post("/v1/templates", template_body()).get_json()


def claims(location: str) -> dict[str, Any]:
    token = location.rsplit("/", 1)[1]
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def test_permanent_link_redirects_to_a_reference_jwt(app: Flask, api: Api, template: dict,
                                                     fake_google: FakeGoogle,
                                                     demo_account: dict) -> None:
    p = issue(api, template, fieldValues={"member": "Ada"})
    response = api.client.get(f"/p/{p['shortId']}/google")
    assert response.status_code == 302
    location = response.headers["Location"]
    assert location.startswith(f"{fake_google.base}/gp/v/save/")
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    token = location.rsplit("/", 1)[1]
    assert len(token) <= 1800
    got = claims(location)
    assert got["iss"] == demo_account["client_email"] and got["aud"] == "google"
    assert got["typ"] == "savetowallet" and got["origins"] == ["https://passes.example.test"]
    assert got["payload"] == {"genericObjects": [
        {"id": f"{ISSUER}.{p['id']}", "classId": f"{ISSUER}.{template['id']}_r1"}]}
    assert "exp" not in got
    assert fake_google.save(location).status_code == 200
    # lower-case short IDs work too (people type them)
    assert api.client.get(f"/p/{p['shortId'].lower()}/google").status_code == 302


def test_fake_google_refuses_a_link_not_signed_by_the_issuer(api: Api, template: dict,
                                                             fake_google: FakeGoogle) -> None:
    p = issue(api, template, fieldValues={"member": "Ada"})
    location = api.client.get(f"/p/{p['shortId']}/google").headers["Location"]
    head, body, sig = location.rsplit("/", 1)[1].split(".")
    forged = body[:-4] + ("AAAA" if body[-4:] != "AAAA" else "BBBB")
    tampered = location.rsplit("/", 1)[0] + f"/{head}.{forged}.{sig}"
    assert fake_google.save(tampered).status_code == 400


def test_download_link_redirects_then_dies(app: Flask, api: Api, template: dict,
                                           fake_google: FakeGoogle) -> None:
    p = issue(api, template, fieldValues={"member": "Ada"})
    link = api.post(f"/v1/passes/{p['id']}/download-links", {"expiresInSeconds": 60}).get_json()
    path = link["url"].removeprefix("https://passes.example.test")
    response = api.client.get(f"{path}/google")
    assert response.status_code == 302 and fake_google.save(
        response.headers["Location"]).status_code == 200
    later = clock.now() + timedelta(seconds=61)
    clock.set_now(lambda: later)
    assert api.client.get(f"{path}/google").status_code == 410
    clock.set_now(None)
    other = api.post(f"/v1/passes/{p['id']}/download-links").get_json()
    other_path = other["url"].removeprefix("https://passes.example.test")
    assert api.delete(f"/v1/download-links/{other['id']}").status_code == 204
    gone = api.client.get(f"{other_path}/google")
    assert gone.status_code == 410 and gone.headers["Cache-Control"] == "no-store"


def test_voided_pass_is_410_on_both_links(api: Api, template: dict,
                                          fake_google: FakeGoogle) -> None:
    p = issue(api, template, fieldValues={"member": "Ada"})
    link = api.post(f"/v1/passes/{p['id']}/download-links").get_json()
    path = link["url"].removeprefix("https://passes.example.test")
    assert api.delete(f"/v1/passes/{p['id']}").status_code == 200
    assert api.client.get(f"/p/{p['shortId']}/google").status_code == 410
    assert api.client.get(f"{path}/google").status_code == 410


def test_unknown_links_and_passes_not_for_google_are_404(api: Api, template: dict,
                                                         fake_google: FakeGoogle) -> None:
    assert api.client.get("/p/NOSUCHPASS23/google").status_code == 404
    assert api.client.get("/p/short/google").status_code == 404
    assert api.client.get("/d/" + "x" * 32 + "/google").status_code == 404
    apple_only = issue(api, template, fieldValues={"member": "Ada"}, platforms={"google": False})
    assert api.client.get(f"/p/{apple_only['shortId']}/google").status_code == 404


@pytest.mark.usefixtures("patient_tap")
def test_object_not_written_yet_is_written_when_the_holder_clicks(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle) -> None:

    app.extensions[DISPATCHER] = None  # the job never ran (queue down)
    p = issue(api, template, fieldValues={"member": "Ada"})
    assert p["artifacts"]["google"] == {"ready": False, "reason": "wallet_pending"}
    assert fake_google.state.calls == []
    response = api.client.get(f"/p/{p['shortId']}/google")
    assert response.status_code == 302
    assert fake_google.save(response.headers["Location"]).status_code == 200


def test_google_unreachable_on_click_is_503_with_retry_after(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle) -> None:

    app.extensions[DISPATCHER] = None
    p = issue(api, template, fieldValues={"member": "Ada"})
    fake_google.fail("POST", "/walletobjects/v1/genericClass", 503, 503, 503)
    response = api.client.get(f"/p/{p['shortId']}/google")
    assert response.status_code == 503 and response.headers["Retry-After"] == "30"


def test_event_ticket_link_and_a_big_design_stay_short(api: Api, png: Any,
                                                       fake_google: FakeGoogle) -> None:
    body = template_body("event", name="N" * 100)
    d = body["definition"]
    d["platforms"]["google"] = True
    d["organizationName"] = "O" * 64
    d["config"]["fields"]["back"] = [
        {"key": f"k{n}_{'x' * 60}", "label": "L" * 64, "binding": "perPass"} for n in range(20)]
    assets = {slot: api.post("/v1/assets", {"slot": slot, "data": png(200, 200)}
                             ).get_json()["id"] for slot in ("logo", "hero")}
    d["images"] = assets
    t = api.post("/v1/templates", body)
    assert t.status_code == 201, t.get_data(as_text=True)
    t = t.get_json()
    p = issue(api, t, fieldValues={"seat": "1", **{f"k{n}_{'x' * 60}": "v" * 500
                                                   for n in range(20)}},
              barcodeValue="B" * 500)
    location = api.client.get(f"/p/{p['shortId']}/google").headers["Location"]
    assert list(claims(location)["payload"]) == ["eventTicketObjects"]
    assert len(location.rsplit("/", 1)[1]) <= 1800
    assert fake_google.save(location).status_code == 200
