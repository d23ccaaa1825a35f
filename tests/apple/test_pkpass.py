"""Signed .pkpass downloads, each bundle checked offline as a device would check it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.apple import validate
from tests.apple.conftest import (
    DEMO_PASS_TYPE,
    DEMO_TEAM,
    auth_token,
    demo_root_pem,
    issue,
    make_template,
)
from tests.conftest import BASE_URL, Api
from tests.support import pki
from webapp import clock
from webapp.wallets.apple import signing

PKPASS = "application/vnd.apple.pkpass"


def download(client, item: dict[str, Any]) -> bytes:
    response = client.get(f"/p/{item['shortId']}/apple.pkpass")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == PKPASS
    return response.get_data()


def valid(data: bytes, root: bytes | None = None) -> tuple[dict[str, Any], list[str]]:
    assert validate.problems(data, root or demo_root_pem()) == []
    return validate.read(data)


def fields(doc: dict[str, Any], style: str = "generic") -> dict[str, list[dict[str, Any]]]:
    return doc[style]


def test_test_pass_is_signed_with_the_demo_identity(app: Flask, client, api: Api) -> None:
    item = issue(api, holderName="Ada")
    doc, names = valid(download(client, item))
    assert doc["passTypeIdentifier"] == DEMO_PASS_TYPE
    assert doc["teamIdentifier"] == DEMO_TEAM
    assert doc["serialNumber"] == item["id"]
    assert doc["organizationName"] == "Acme Gym" and doc["description"] == "Gym membership"
    assert doc["webServiceURL"] == f"{BASE_URL}/wallet/apple"
    token = auth_token(app, item["id"])
    assert doc["authenticationToken"] == token and len(token) >= 32
    assert doc["backgroundColor"] == "rgb(17, 34, 51)"
    assert doc["foregroundColor"] == doc["labelColor"] == "rgb(255, 255, 255)"
    assert fields(doc)["primaryFields"] == [
        {"key": "member", "label": "Member", "value": "Ada Lovelace"}]
    assert fields(doc)["secondaryFields"] == [
        {"key": "club", "label": "Club", "value": "Downtown"}]  # unset optional: left out
    assert "voided" not in doc and "barcodes" not in doc
    # No icon in the template: a generated one, in all three scales.
    assert {"icon.png", "icon@2x.png", "icon@3x.png"} <= set(names)


def test_the_token_is_fixed_for_the_life_of_the_pass(app: Flask, client, api: Api) -> None:
    item = issue(api)
    before = validate.read(download(client, item))[0]["authenticationToken"]
    api.patch(f"/v1/passes/{item['id']}", {"fieldValues": {"level": "Gold"}})
    after = validate.read(download(client, item))[0]
    assert after["authenticationToken"] == before
    assert fields(after)["secondaryFields"][0] == {"key": "level", "label": "Level",
                                                   "value": "Gold"}


def test_event_ticket_with_images_barcode_and_event(client, api: Api, png) -> None:
    assets = {slot: api.post("/v1/assets", {"slot": slot, "data": png(w, h)}).get_json()["id"]
              for slot, (w, h) in {"icon": (120, 120), "logo": (600, 150),
                                   "strip": (1200, 400)}.items()}
    template = make_template(api, "event", images=assets, expiresAt="2027-01-02T06:00:00Z",
                             locations=[{"latitude": 52.5, "longitude": 13.4,
                                         "relevantText": "Welcome"}],
                             barcode={"format": "pdf417", "perPass": True,
                                      "altText": "Ticket {{shortId}}"})
    item = issue(api, template, fieldValues={"seat": "A12"}, barcodeValue="TKT-0001")
    doc, names = valid(download(client, item))
    assert doc["eventTicket"]["primaryFields"] == [{"key": "seat", "label": "Seat",
                                                    "value": "A12"}]
    assert doc["barcodes"] == [{"format": "PKBarcodeFormatPDF417", "message": "TKT-0001",
                                "messageEncoding": "iso-8859-1",
                                "altText": f"Ticket {item['shortId']}"}]
    assert doc["relevantDate"] == "2027-01-01T20:00:00Z"
    assert doc["expirationDate"] == "2027-01-02T06:00:00Z"
    assert doc["semantics"]["eventName"] == "The Show"
    assert doc["semantics"]["venueName"] == "Hall"
    assert doc["locations"] == [{"latitude": 52.5, "longitude": 13.4, "relevantText": "Welcome"}]
    assert doc["labelColor"] == "rgb(255, 0, 0)"
    back = {f["key"]: f["value"] for f in doc["eventTicket"]["backFields"]}
    assert back["event.name"] == "The Show" and back["event.venue"] == "Hall, 1 Main St"
    for slot in ("icon", "logo", "strip"):
        assert {f"{slot}.png", f"{slot}@2x.png", f"{slot}@3x.png"} <= set(names)
    assert "preferredStyleSchemes" not in doc  # a strip, not the event's artwork


def upload_all(api: Api, png, sizes: dict[str, tuple[int, int]]) -> dict[str, str]:
    return {slot: api.post("/v1/assets", {"slot": slot, "data": png(w, h)}).get_json()["id"]
            for slot, (w, h) in sizes.items()}


def seated_event_template(api: Api, images: dict[str, str]) -> dict[str, Any]:
    fields = {"primary": [{"key": "seat", "label": "Seat", "binding": "perPass",
                           "required": True}],
              "auxiliary": [{"key": "rowNo", "label": "Row", "binding": "perPass"},
                            {"key": "block", "label": "Block", "binding": "shared",
                             "value": "B2"},
                            {"key": "door", "label": "Gate", "binding": "perPass"}]}
    event = {"name": "The Show", "startsAt": "2027-01-01T20:00:00Z",
             "doorsOpenAt": "2027-01-01T19:00:00Z", "category": "conference",
             "venue": {"name": "Hall", "address": "1 Main St",
                       "location": {"latitude": 52.5, "longitude": 13.4}},
             "seatFields": {"number": "seat", "row": "rowNo", "section": "block",
                            "gate": "door"}}
    return make_template(api, "event", images=images, event=event, config={"fields": fields})


def test_ios18_event_ticket_with_semantic_tags_and_poster_style(client, api: Api,
                                                                  png) -> None:
    images = upload_all(api, png, {"icon": (120, 120), "logo": (600, 150),
                                   "background": (400, 500), "thumbnail": (300, 300)})
    item = issue(api, seated_event_template(api, images),
                 fieldValues={"seat": "12", "rowNo": "F", "door": "3"}, barcodeValue="T-1",
                 holderName="Ada Lovelace")
    doc, names = valid(download(client, item))
    assert doc["preferredStyleSchemes"] == ["posterEventTicket", "eventTicket"]
    assert doc["semantics"] == {
        "eventType": "PKEventTypeConference", "eventName": "The Show", "venueName": "Hall",
        "eventStartDate": "2027-01-01T20:00:00Z",
        "venueLocation": {"latitude": 52.5, "longitude": 13.4},
        "venueDoorsOpenDate": "2027-01-01T19:00:00Z",
        "seats": [{"seatSection": "B2", "seatRow": "F", "seatNumber": "12"}],
        "venueEntranceGate": "3", "attendeeName": "Ada Lovelace"}
    # The classic layout older iOS shows is all there too.
    assert doc["eventTicket"]["primaryFields"] == [{"key": "seat", "label": "Seat",
                                                    "value": "12"}]
    assert {"background.png", "background@3x.png", "logo@2x.png"} <= set(names)


def test_event_ticket_without_the_artwork_keeps_the_classic_style(client, api: Api,
                                                                   png) -> None:
    images = upload_all(api, png, {"logo": (600, 150), "thumbnail": (300, 300)})
    item = issue(api, seated_event_template(api, images), fieldValues={"seat": "12"},
                 barcodeValue="T-1")
    doc, names = valid(download(client, item))
    assert "preferredStyleSchemes" not in doc and "background.png" not in names
    assert doc["semantics"]["seats"] == [{"seatSection": "B2", "seatNumber": "12"}]
    assert "venueEntranceGate" not in doc["semantics"]
    assert "attendeeName" not in doc["semantics"]  # no holderName given


def test_images_no_wallet_would_show_are_refused(api: Api, png) -> None:
    images = upload_all(api, png, {"strip": (1200, 400), "background": (400, 500)})
    response = api.post("/v1/templates", template_body("event", images=images))
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == "invalid_definition"
    assert [(i["path"], i["code"]) for i in error["issues"]] == [
        ("/images/background", "conflicting_member")]


def test_image_sizes_follow_their_slots(client, api: Api, png) -> None:
    from io import BytesIO
    from zipfile import ZipFile

    from PIL import Image

    assets = {slot: api.post("/v1/assets", {"slot": slot, "data": png(w, h)}).get_json()["id"]
              for slot, (w, h) in {"icon": (300, 200), "logo": (1000, 100),
                                   "thumbnail": (400, 400), "strip": (800, 300)}.items()}
    data = download(client, issue(api, make_template(api, images=assets)))
    valid(data)
    archive = ZipFile(BytesIO(data))
    sizes = {n: Image.open(BytesIO(archive.read(n))).size for n in archive.namelist()
             if n.endswith(".png")}
    assert sizes["icon.png"] == (29, 29) and sizes["icon@3x.png"] == (87, 87)
    assert sizes["logo@2x.png"] == (320, 32)  # fits 320x100, keeping 10:1
    assert sizes["thumbnail@3x.png"] == (270, 270)
    assert "strip.png" not in sizes  # a generic pass shows no strip


def test_live_pass_is_signed_with_the_organization_certificate(
        client, live_api: Api, live_certificate: str) -> None:
    item = issue(live_api, platforms={"apple": True, "google": False})
    assert item["signing"]["appleCertificateId"] == live_certificate
    doc, _ = valid(download(client, item), pki.make().root_pem)
    assert doc["passTypeIdentifier"] == pki.PASS_TYPE and doc["teamIdentifier"] == pki.TEAM
    # The demo root does not vouch for it.
    assert any("cms verify failed" in p for p in validate.problems(download(client, item),
                                                                  demo_root_pem()))


def test_a_tampered_manifest_fails_validation(client, api: Api) -> None:
    import io
    import zipfile

    data = download(client, issue(api))
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            body = source.read(name)
            if name == "pass.json":
                body = body.replace(b"Ada Lovelace", b"Eve Mallory")
            target.writestr(name, body)
    assert "sha1 mismatch pass.json" in validate.problems(out.getvalue(), demo_root_pem())


def test_repeated_downloads_are_not_signed_again(client, api: Api, monkeypatch) -> None:
    calls = []
    original = signing.Signer.sign
    monkeypatch.setattr(signing.Signer, "sign",
                        lambda self, manifest: calls.append(1) or original(self, manifest))
    item = issue(api)
    first = download(client, item)
    assert download(client, item) == first and len(calls) == 1
    api.patch(f"/v1/passes/{item['id']}", {"fieldValues": {"member": "Grace Hopper"}})
    assert download(client, item) != first and len(calls) == 2


def test_private_keys_are_parsed_once(client, api: Api, monkeypatch) -> None:
    from webapp.wallets.apple import certificates

    parsed = []
    original = certificates.load_private_key
    monkeypatch.setattr(certificates, "load_private_key",
                        lambda pem: parsed.append(1) or original(pem))
    signing._signers.clear()
    template = make_template(api)
    for _ in range(3):
        download(client, issue(api, template))
    assert len(parsed) == 1


def test_download_link_serves_the_pass(client, api: Api) -> None:
    item = issue(api)
    url = api.post(f"/v1/passes/{item['id']}/download-links", {}).get_json()["url"]
    path = url.replace(BASE_URL, "") + "/apple.pkpass"
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == PKPASS
    assert response.headers["Cache-Control"] == "no-store"
    valid(response.get_data())


def test_expired_and_revoked_links_are_gone(client, api: Api) -> None:
    item = issue(api)
    made = api.post(f"/v1/passes/{item['id']}/download-links", {"expiresInSeconds": 60})
    path = made.get_json()["url"].replace(BASE_URL, "") + "/apple.pkpass"
    clock.set_now(lambda: clock.datetime.now(clock.UTC) + timedelta(seconds=61))
    assert client.get(path).status_code == 410
    clock.set_now(None)
    other = api.post(f"/v1/passes/{item['id']}/download-links", {}).get_json()
    api.delete(f"/v1/download-links/{other['id']}")
    response = client.get(other["url"].replace(BASE_URL, "") + "/apple.pkpass")
    assert response.status_code == 410 and response.mimetype == "text/html"


def test_voided_pass_is_gone(client, api: Api) -> None:
    item = issue(api)
    url = api.post(f"/v1/passes/{item['id']}/download-links", {}).get_json()["url"]
    api.delete(f"/v1/passes/{item['id']}")
    assert client.get(f"/p/{item['shortId']}/apple.pkpass").status_code == 410
    assert client.get(url.replace(BASE_URL, "") + "/apple.pkpass").status_code == 410


@pytest.mark.parametrize("path", ["/p/ZZZZZZZZZZZZ/apple.pkpass", "/p/short/apple.pkpass",
                                  "/d/" + "x" * 32 + "/apple.pkpass"])
def test_unknown_pass_is_404(client, path: str) -> None:
    assert client.get(path).status_code == 404


def test_pass_not_issued_for_apple_is_404(client, api: Api) -> None:
    item = issue(api, platforms={"apple": False, "google": True})
    assert item["artifacts"]["apple"] == {"ready": False, "reason": "not_issued_for_platform"}
    assert client.get(f"/p/{item['shortId']}/apple.pkpass").status_code == 404


def test_expired_certificate_is_unavailable(client, live_api: Api, live_certificate: str
                                            ) -> None:
    item = issue(live_api, platforms={"apple": True, "google": False})
    later = clock.datetime.now(clock.UTC) + timedelta(days=3700)
    clock.set_now(lambda: later)
    shown = live_api.get(f"/v1/passes/{item['id']}").get_json()
    assert shown["artifacts"]["apple"] == {"ready": False, "reason": "certificate_expired"}
    answer = client.get(f"/p/{item['shortId']}/apple.pkpass")  # the pass's page, saying why
    assert answer.status_code == 200 and answer.mimetype == "text/html"


def test_artifacts_ready_for_a_test_pass(api: Api) -> None:
    item = issue(api)
    assert api.get(f"/v1/passes/{item['id']}").get_json()["artifacts"]["apple"] == {
        "ready": True, "reason": None}
