"""An independent validator over our passes: passkit-generator 3.6.1 (npm), a widely used pass
library, reads the .pkpass files of event tickets and of a membership card built through the
API with every member the service can set, and has nothing to say: no error, no warning.

The node project is `tests/apple/passkit_generator/` (its lock pins the library and its
dependencies by hash); `npm ci` installs it into a temporary folder once per session.
"""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from flask import Flask

from tests.apple import validate
from tests.apple.conftest import (
    DEMO_PASS_TYPE,
    auth_token,
    demo_chain,
    demo_root_pem,
    issue,
    make_template,
)
from tests.conftest import Api, put_pass_image, upload_asset
from tests.support.node import npm_ci

NODE_PROJECT = Path(__file__).parent / "passkit_generator"
PROJECT_FILES = ("package.json", "package-lock.json", "validate.js")

GERMAN = {"organizationName": "Acme Konzerte", "description": "Konzertkarte",
          "logoText": "Acme Konzerte",
          "fields": {"section": {"label": "Block"}, "row": {"label": "Reihe"},
                     "seat": {"label": "Platz"}, "price": {"label": "Preis"},
                     "terms": {"label": "Bedingungen", "value": "Kein Wiedereinlass."},
                     "show": {"value": "Die Show"}},  # one wording, one translation
          "event": {"name": "Die Show", "venue": {"name": "Halle", "address": "Hauptstr. 1"}}}
FRENCH = {"description": "Carte de membre \"Gym\"",
          "fields": {"member": {"label": "Membre", "changeMessage": "Membre : %@"},
                     "club": {"label": "Club", "value": "Centre\\ville"}}}


@pytest.fixture(scope="session")
def passkit_generator(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The node project, installed with `npm ci` into a temporary folder."""
    return npm_ci(NODE_PROJECT, PROJECT_FILES, tmp_path_factory.mktemp("passkit-generator"))


def problems(project: Path, bundles: dict[str, bytes], work: Path) -> dict[str, list[str]]:
    """What passkit-generator says of each .pkpass (name -> its problems)."""
    certs = work / "certs"
    certs.mkdir()
    identity = demo_chain().identity
    pem = serialization.Encoding.PEM
    (certs / "wwdr.pem").write_bytes(identity.wwdr.public_bytes(pem))
    (certs / "signer.pem").write_bytes(identity.certificate.public_bytes(pem))
    (certs / "signer-key.pem").write_bytes(identity.private_key.private_bytes(
        pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    folders = {}
    for name, data in bundles.items():
        folders[name] = work / name
        zipfile.ZipFile(io.BytesIO(data)).extractall(folders[name])
    done = subprocess.run(["node", str(project / "validate.js"), str(certs),
                           *map(str, folders.values())], capture_output=True, text=True,
                          timeout=60, check=False)
    # Anything on stderr, or a failed run, is a problem the report would not show.
    assert done.returncode == 0 and done.stderr == "", done.stderr
    report = json.loads(done.stdout)
    return {name: report[str(folder)] for name, folder in folders.items()}


def pkpass(client: Any, item: dict[str, Any]) -> bytes:
    """The pass's signed .pkpass, valid by our own offline checks."""
    response = client.get(f"/p/{item['shortId']}/apple.pkpass")
    assert response.status_code == 200
    data: bytes = response.get_data()
    assert validate.problems(data, demo_root_pem()) == []
    return data


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.get_json()
    return dict(response.get_json())


def event_ticket(api: Api, client: Any, png: Any) -> dict[str, bytes]:
    """An event ticket with every member: as issued, after a notified update that gives it its
    own relevant date, and after its check-in."""
    image = {slot: upload_asset(api, slot, png(400, 400)) for slot in ("icon", "logo",
                                                                       "background")}
    template = make_template(
        api, "event", logoText="Acme Live", images=image,
        colors={"background": "#101820", "foreground": "#ffffff", "label": "#ffcc00"},
        barcode={"format": "qr", "perPass": True, "altText": "Ticket {{shortId}}"},
        event={"name": "The Show", "category": "conference",
               "venue": {"name": "Hall", "address": "1 Main St",
                         "location": {"latitude": 52.52, "longitude": 13.405}},
               "doorsOpenAt": "2031-01-01T19:00:00+01:00",
               "startsAt": "2031-01-01T20:00:00+01:00", "endsAt": "2031-01-01T23:00:00+01:00",
               "seatFields": {"section": "section", "row": "row", "number": "seat",
                              "gate": "gate"}},
        expiresAt="2031-01-02T06:00:00+01:00",
        locations=[{"latitude": 52.52, "longitude": 13.405, "relevantText": "Doors at 7"},
                   {"latitude": 52.5, "longitude": 13.4}],
        redemption={"mode": "single"}, defaultLanguage="en", translations={"de": GERMAN},
        config={"fields": {
            "header": [{"key": "gate", "label": "Gate", "binding": "perPass"}],
            "primary": [{"key": "show", "label": "Event", "binding": "shared",
                         "value": "The Show"}],
            "secondary": [{"key": "section", "label": "Section", "binding": "perPass"},
                          {"key": "row", "label": "Row", "binding": "perPass"},
                          {"key": "seat", "label": "Seat", "binding": "perPass",
                           "required": True, "changeMessage": "Your seat is now %@"}],
            "auxiliary": [{"key": "price", "label": "Price", "binding": "shared",
                           "value": 49.5, "format": "number"},
                          {"key": "day", "label": "Day", "binding": "shared",
                           "value": "2031-01-01", "format": "date"},
                          {"key": "admission", "label": "Admission", "binding": "perPass",
                           "format": "dateTime"}],
            "back": [{"key": "terms", "label": "Terms", "binding": "shared",
                      "value": "No re-entry. https://acme.example/terms +1 555 0100"},
                     {"key": "note", "label": "Note", "binding": "perPass"}]}})
    item = issue(api, template, holderName="Ada Lovelace", holderEmail="ada@example.com",
                 barcodeValue="T-0001", expiresAt="2031-01-02T05:00:00+01:00",
                 fieldValues={"gate": "B", "section": "Floor", "row": "12", "seat": "7",
                              "admission": "2031-01-01T19:30:00+01:00", "note": "VIP"})
    put_pass_image(api, item["id"], "thumbnail", upload_asset(api, "thumbnail", png(300, 300)))
    issued = pkpass(client, item)
    ok(api.patch(f"/v1/passes/{item['id']}", {
        "fieldValues": {"seat": "8"}, "notificationMode": "notify",
        "relevantDate": "2031-01-01T18:30:00+01:00"}))
    updated = pkpass(client, item)
    ok(api.post(f"/v1/passes/{item['id']}/redemptions", {"location": "Gate B"}), 201)
    return {"event-issued": issued, "event-updated": updated,
            "event-checked-in": pkpass(client, item)}


def event_without_end(api: Api, client: Any, png: Any) -> dict[str, bytes]:
    """An event ticket with the fewest members: no end, no images but its own strip."""
    template = make_template(api, "event", barcode={"format": "pdf417", "perPass": True})
    item = issue(api, template, fieldValues={"seat": "A1"}, barcodeValue="T-0002")
    put_pass_image(api, item["id"], "strip", upload_asset(api, "strip", png(750, 196)))
    return {"event-without-end": pkpass(client, item)}


def membership_card(app: Flask, api: Api, client: Any, png: Any) -> dict[str, bytes]:
    """A membership card with every member: after a notified update, its own dates and image
    and a check-in; then voided."""
    image = {slot: upload_asset(api, slot, png(400, 400)) for slot in ("icon", "logo",
                                                                       "thumbnail")}
    template = make_template(
        api, logoText="Acme Gym", images=image,
        colors={"background": "#112233", "foreground": "#ffffff", "label": "#99ccff"},
        barcode={"format": "qr", "value": "{{shortId}}", "altText": "{{shortId}}"},
        expiresAt="2032-12-31T23:00:00Z",
        locations=[{"latitude": 48.85, "longitude": 2.35, "relevantText": "Show your card"}],
        redemption={"mode": "multiple", "maxUses": 10}, defaultLanguage="en",
        translations={"fr": FRENCH},
        config={"fields": {
            "header": [{"key": "points", "label": "Points", "binding": "perPass",
                        "format": "number"}],
            "primary": [{"key": "member", "label": "Member", "binding": "perPass",
                         "required": True}],
            # With a QR code a generic pass shows 4 of these; the fifth moves to the back.
            "secondary": [{"key": "level", "label": "Level", "binding": "perPass"},
                          {"key": "club", "label": "Club", "binding": "shared",
                           "value": "Downtown"},
                          {"key": "since", "label": "Since", "binding": "perPass",
                           "format": "date"}],
            "auxiliary": [{"key": "renews", "label": "Renews", "binding": "perPass",
                           "format": "dateTime"},
                          {"key": "locker", "label": "Locker", "binding": "perPass"}],
            "back": [{"key": "terms", "label": "Terms", "binding": "shared",
                      "value": "Call +1 555 0100 or see https://acme.example/gym"}]}})
    item = issue(api, template, holderName="Ada Lovelace", holderEmail="ada@example.com",
                 expiresAt="2032-06-30T23:59:00+02:00",
                 relevantDate="2031-06-30T18:00:00+02:00",
                 fieldValues={"member": "Ada Lovelace", "points": 1200, "level": "Gold",
                              "since": "2024-03-01", "renews": "2032-06-30T09:00:00+02:00",
                              "locker": "42"})
    put_pass_image(api, item["id"], "thumbnail", upload_asset(api, "thumbnail", png(300, 300)))
    ok(api.patch(f"/v1/passes/{item['id']}", {
        "fieldValues": {"member": "Ada King", "points": 1250.5},
        "notificationMode": "notify"}))
    ok(api.post(f"/v1/passes/{item['id']}/redemptions", {"location": "Front desk"}), 201)
    updated = pkpass(client, item)
    ok(api.delete(f"/v1/passes/{item['id']}"))
    # The holder page is gone (410); devices holding the pass fetch the voided version.
    voided = client.get(f"/wallet/apple/v1/passes/{DEMO_PASS_TYPE}/{item['id']}",
                        headers={"Authorization": f"ApplePass {auth_token(app, item['id'])}"})
    assert voided.status_code == 200
    assert validate.problems(voided.get_data(), demo_root_pem()) == []
    return {"membership-updated": updated, "membership-voided": voided.get_data()}


def test_passkit_generator_has_nothing_to_say_of_our_passes(
        app: Flask, api: Api, client: Any, png: Any, passkit_generator: Path,
        tmp_path: Path) -> None:
    bundles = {**event_ticket(api, client, png), **event_without_end(api, client, png),
               **membership_card(app, api, client, png)}
    assert problems(passkit_generator, bundles, tmp_path) == {name: [] for name in bundles}
    # The passes carry the members the report is about.
    docs = {name: validate.read(data)[0] for name, data in bundles.items()}
    assert docs["event-issued"]["relevantDates"] == [
        {"startDate": "2031-01-01T20:00:00+01:00", "endDate": "2031-01-01T23:00:00+01:00"}]
    assert docs["event-without-end"]["relevantDates"] == [
        {"date": "2027-01-01T20:00:00Z", "relevantDate": "2027-01-01T20:00:00Z"}]
    assert docs["event-updated"]["relevantDates"] == [
        {"date": "2031-01-01T18:30:00+01:00", "relevantDate": "2031-01-01T18:30:00+01:00"}]
    assert docs["event-issued"]["preferredStyleSchemes"] == ["posterEventTicket", "eventTicket"]
    assert {"seats", "venueLocation", "attendeeName"} <= set(docs["event-issued"]["semantics"])
    assert any("changeMessage" in f for f in docs["event-updated"]["eventTicket"]
               ["secondaryFields"])
    assert any(f["key"] == "redemption.checkedIn"
               for f in docs["event-checked-in"]["eventTicket"]["backFields"])
    assert docs["membership-voided"]["voided"] is True
    names = {name: set(zipfile.ZipFile(io.BytesIO(data)).namelist())
             for name, data in bundles.items()}
    assert {"de.lproj/pass.strings", "thumbnail.png", "background.png"} <= names["event-issued"]
    assert {"fr.lproj/pass.strings", "thumbnail.png"} <= names["membership-updated"]
    assert "strip.png" in names["event-without-end"]


def rezip(data: bytes, change: dict[str, bytes | None]) -> bytes:
    """The bundle with files replaced, added or (None) removed."""
    source = zipfile.ZipFile(io.BytesIO(data))
    files: dict[str, bytes | None] = {name: source.read(name) for name in source.namelist()}
    files.update(change)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, content in files.items():
            if content is not None:
                archive.writestr(name, content)
    return out.getvalue()


def test_the_validator_reports_errors_warnings_and_dropped_translations(
        api: Api, client: Any, passkit_generator: Path, tmp_path: Path) -> None:
    data = pkpass(client, issue(api, make_template(api, "event"), fieldValues={"seat": "A1"},
                                barcodeValue="T-1"))
    doc = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("pass.json"))
    moment = doc["relevantDate"]
    found = problems(passkit_generator, {
        # What the service wrote before (iOS 26's key alone), and a key the library does not
        # know (its import strips those without a word).
        "date-only": rezip(data, {"pass.json": json.dumps(
            {**doc, "relevantDates": [{"date": moment}], "posterStyle": True}).encode()}),
        # The library only logs this one (no error): the pass cannot be opened.
        "no-icon": rezip(data, {"icon.png": None, "icon@2x.png": None, "icon@3x.png": None}),
        # An entry the library's parser cannot read: it drops the file without a word.
        "unread": rezip(data, {"de.lproj/pass.strings": '"Seat" = "";\n'.encode("utf-16")}),
    }, tmp_path)
    assert found["date-only"][:2] == [
        'pass.json: "relevantDates[0]" does not match any of the allowed types '
        "(at relevantDates.0)",
        'pass.json: "posterStyle" is not allowed (at posterStyle)']
    assert found["no-icon"] == [
        "console.warn: At least one icon file is missing in your bundle. Your pass won't be "
        "openable by any Apple Device."]
    assert found["unread"] == ["de.lproj/pass.strings: the library read 0 of its 1 entries"]
