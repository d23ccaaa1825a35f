"""A pass's own dates and images in its signed .pkpass (pass.json keys, image files), and
their changes pushed over APNs (the HTTP/2 fake) to a registered device, which then fetches
the new version."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from PIL import Image

from tests.apple import validate
from tests.apple.conftest import (
    DEMO_PASS_TYPE,
    Device,
    apns_overrides,
    auth_token,
    demo_root_pem,
    issue,
    make_template,
)
from tests.conftest import Api, put_pass_image, upload_asset

PHONE = "c" * 64
WHEN = "2027-06-30T23:59:00+02:00"
RELEVANT = "2027-06-30T18:00:00.250+02:00"


@pytest.fixture
def extra_overrides(fake_apns: Any) -> dict[str, Any]:
    return apns_overrides(fake_apns)


def pkpass(client: Any, item: dict[str, Any]) -> bytes:
    response = client.get(f"/p/{item['shortId']}/apple.pkpass")
    assert response.status_code == 200
    data: bytes = response.get_data()
    assert validate.problems(data, demo_root_pem()) == []
    return data


def upload(api: Api, png: Any, slot: str, color: str = "#cc3366") -> str:
    return upload_asset(api, slot, png(300, 300, color))


def delivery(api: Api, update_id: str) -> dict[str, Any]:
    return dict(api.get(f"/v1/pass-updates/{update_id}").get_json()["delivery"]["apple"])


def registered_phone(app: Any, client: Any, item: dict[str, Any]) -> tuple[Device, str]:
    token = auth_token(app, item["id"])
    phone = Device(client, "phone-dates-1", PHONE)
    assert phone.register(DEMO_PASS_TYPE, item["id"], token).status_code == 201
    return phone, token


def test_own_dates_become_apple_keys(api: Api, client: Any) -> None:
    item = issue(api, expiresAt=WHEN, relevantDate=RELEVANT)
    doc, _names = validate.read(pkpass(client, item))
    assert doc["expirationDate"] == "2027-06-30T23:59:00+02:00"
    # iOS before 18 reads relevantDate; iOS 18 to 25 relevantDates' relevantDate, iOS 26 its
    # date (seconds precision).
    moment = "2027-06-30T18:00:00+02:00"
    assert doc["relevantDate"] == moment
    assert doc["relevantDates"] == [{"date": moment, "relevantDate": moment}]


def test_a_pass_without_dates_keeps_its_templates(api: Api, client: Any) -> None:
    template = make_template(api, expiresAt="2026-12-31T23:00:00Z")
    plain = issue(api, template)
    doc, _ = validate.read(pkpass(client, plain))
    assert doc["expirationDate"] == "2026-12-31T23:00:00Z"
    assert "relevantDate" not in doc and "relevantDates" not in doc
    own = issue(api, template, expiresAt=WHEN)
    assert validate.read(pkpass(client, own))[0]["expirationDate"] == WHEN


def test_an_event_tickets_own_relevant_date_replaces_the_events(api: Api,
                                                                client: Any) -> None:
    template = make_template(api, "event")
    item = issue(api, template, fieldValues={"seat": "A1"}, barcodeValue="T-1",
                 relevantDate="2027-01-01T19:00:00Z")
    doc, _ = validate.read(pkpass(client, item))
    assert doc["relevantDate"] == "2027-01-01T19:00:00Z"
    assert doc["relevantDates"] == [{"date": "2027-01-01T19:00:00Z",
                                     "relevantDate": "2027-01-01T19:00:00Z"}]
    assert doc["semantics"]["eventStartDate"] == "2027-01-01T20:00:00Z"  # the event's own


def test_a_date_change_is_pushed_and_fetched(app: Any, api: Api, client: Any,
                                             fake_apns: Any) -> None:
    item = issue(api)
    phone, token = registered_phone(app, client, item)
    assert "expirationDate" not in validate.read(pkpass(client, item))[0]
    response = api.patch(f"/v1/passes/{item['id']}", {"expiresAt": WHEN})
    assert response.status_code == 200
    update = response.get_json()["update"]
    [push] = fake_apns.pushes_to(PHONE)
    assert push.topic == DEMO_PASS_TYPE and push.body == b"{}"
    assert delivery(api, update["id"]) == {"status": "sent", "devices": 1, "error": None}
    assert phone.serials(DEMO_PASS_TYPE).get_json()["serialNumbers"] == [item["id"]]
    fetched = phone.fetch(DEMO_PASS_TYPE, item["id"], token)
    assert fetched.status_code == 200
    assert validate.problems(fetched.get_data(), demo_root_pem()) == []
    doc, _ = validate.read(fetched.get_data())
    assert doc["expirationDate"] == WHEN
    assert not any("changeMessage" in f for group in doc["generic"].values() for f in group)
    cleared = api.patch(f"/v1/passes/{item['id']}", {"expiresAt": None})
    assert cleared.status_code == 200
    assert len(fake_apns.pushes_to(PHONE)) == 2
    doc, _ = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())
    assert "expirationDate" not in doc


def test_notify_mode_with_only_a_date_alerts_no_field(app: Any, api: Api, client: Any,
                                                      fake_apns: Any) -> None:
    item = issue(api)
    phone, token = registered_phone(app, client, item)
    response = api.patch(f"/v1/passes/{item['id']}",
                         {"relevantDate": RELEVANT, "notificationMode": "notify"})
    assert response.status_code == 200
    assert len(fake_apns.pushes_to(PHONE)) == 1
    doc, _ = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())
    assert not any("changeMessage" in f for group in doc["generic"].values() for f in group)


def png_size(archive: zipfile.ZipFile, name: str) -> tuple[int, int]:
    with Image.open(io.BytesIO(archive.read(name))) as image:
        return image.size


def pixel(archive: zipfile.ZipFile, name: str) -> tuple[int, ...]:
    with Image.open(io.BytesIO(archive.read(name))) as image:
        return tuple(image.convert("RGB").getpixel((image.width // 2, image.height // 2)))


def test_an_own_thumbnail_is_in_the_bundle_and_pushed(app: Any, api: Api, client: Any,
                                                      fake_apns: Any, png: Any) -> None:
    item = issue(api)
    phone, token = registered_phone(app, client, item)
    assert "thumbnail.png" not in validate.read(pkpass(client, item))[1]
    asset = upload(api, png, "thumbnail")
    update = put_pass_image(api, item["id"], "thumbnail", asset)["update"]
    assert len(fake_apns.pushes_to(PHONE)) == 1
    assert delivery(api, update["id"])["status"] == "sent"
    fetched = phone.fetch(DEMO_PASS_TYPE, item["id"], token)
    assert validate.problems(fetched.get_data(), demo_root_pem()) == []
    archive = zipfile.ZipFile(io.BytesIO(fetched.get_data()))
    assert {"thumbnail.png", "thumbnail@2x.png", "thumbnail@3x.png"} <= set(archive.namelist())
    assert png_size(archive, "thumbnail@2x.png") == (180, 180)
    assert pixel(archive, "thumbnail.png") == (0xcc, 0x33, 0x66)
    removed = api.delete(f"/v1/passes/{item['id']}/images/thumbnail")
    assert removed.status_code == 200
    assert len(fake_apns.pushes_to(PHONE)) == 2
    names = validate.read(phone.fetch(DEMO_PASS_TYPE, item["id"], token).get_data())[1]
    assert "thumbnail.png" not in names


def test_an_own_thumbnail_replaces_the_templates(api: Api, client: Any, png: Any) -> None:
    theirs = upload(api, png, "thumbnail", "#00ff00")
    template = make_template(api, images={"thumbnail": theirs})
    item = issue(api, template)
    archive = zipfile.ZipFile(io.BytesIO(pkpass(client, item)))
    assert pixel(archive, "thumbnail.png") == (0, 255, 0)
    put_pass_image(api, item["id"], "thumbnail", upload(api, png, "thumbnail", "#0000ff"))
    archive = zipfile.ZipFile(io.BytesIO(pkpass(client, item)))
    assert pixel(archive, "thumbnail.png") == (0, 0, 255)
    # The template's other passes keep the template's image.
    other = zipfile.ZipFile(io.BytesIO(pkpass(client, issue(api, template))))
    assert pixel(other, "thumbnail.png") == (0, 255, 0)


def test_an_event_tickets_own_strip_wins_over_background_and_thumbnail(
        api: Api, client: Any, png: Any) -> None:
    template = make_template(api, "event", images={
        "background": upload(api, png, "background"), "logo": upload(api, png, "logo"),
        "thumbnail": upload(api, png, "thumbnail")})
    item = issue(api, template, fieldValues={"seat": "A1"}, barcodeValue="T-1")
    doc, names = validate.read(pkpass(client, item))
    assert "background.png" in names and "strip.png" not in names
    put_pass_image(api, item["id"], "strip", upload(api, png, "strip", "#123456"))
    data = pkpass(client, item)
    doc, names = validate.read(data)
    assert "strip.png" in names
    assert "background.png" not in names and "thumbnail.png" not in names
    assert "preferredStyleSchemes" not in doc  # Apple's poster style draws no strip
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert png_size(archive, "strip@2x.png") == (750, 196)
