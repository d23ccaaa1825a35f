"""A template's languages in the signed .pkpass: `<lang>.lproj/pass.strings` files, UTF-16,
keyed by the default language's texts as pass.json carries them, covered by the manifest
and the signature."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from tests.apple.conftest import issue, make_template
from tests.apple.test_pkpass import download, valid
from tests.conftest import Api

GERMAN = {"organizationName": "Acme Fitness", "description": "Mitgliedskarte",
          "fields": {"member": {"label": "Mitglied", "changeMessage": "Mitglied: %@"},
                     "level": {"label": "Stufe"},
                     "club": {"label": "Verein", "value": "Innenstadt"}}}
FRENCH = {"description": "Carte de membre \"Gym\"",
          "fields": {"club": {"label": "Club", "value": "Centre\\ville"}}}


def strings(data: bytes) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    return {name: archive.read(name) for name in archive.namelist() if ".lproj/" in name}


def test_translations_become_pass_strings_in_the_signed_bundle(client, api: Api) -> None:
    template = make_template(api, translations={"de": GERMAN, "fr": FRENCH})
    item = issue(api, template, fieldValues={"member": "Ada Lovelace", "level": "Gold"})
    data = download(client, item)
    doc, _names = valid(data)  # manifest and signature cover the .lproj files
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("manifest.json"))
    files = strings(data)
    assert set(files) == {"de.lproj/pass.strings", "fr.lproj/pass.strings",
                          "en.lproj/pass.strings"}
    assert set(files) <= set(manifest)
    # pass.json keeps the default language's texts: they are the keys.
    assert (doc["organizationName"], doc["description"]) == ("Acme Gym", "Gym membership")
    assert doc["generic"]["primaryFields"] == [
        {"key": "member", "label": "Member", "value": "Ada Lovelace"}]
    german = files["de.lproj/pass.strings"]
    assert german[:2] == b"\xff\xfe"  # UTF-16 little-endian, with its byte order mark
    assert german.decode("utf-16") == (
        '"Acme Gym" = "Acme Fitness";\n'
        '"Gym membership" = "Mitgliedskarte";\n'
        '"Member" = "Mitglied";\n'
        '"Level" = "Stufe";\n'
        '"Club" = "Verein";\n'
        '"Downtown" = "Innenstadt";\n')
    # Quotes and backslashes are escaped; a text the translation keeps is not repeated.
    assert files["fr.lproj/pass.strings"].decode("utf-16") == (
        '"Gym membership" = "Carte de membre \\"Gym\\"";\n'
        '"Downtown" = "Centre\\\\ville";\n')
    # The default language maps each key to itself, so Wallet can choose it by name.
    english = files["en.lproj/pass.strings"].decode("utf-16")
    assert english.splitlines() == [
        '"Acme Gym" = "Acme Gym";', '"Gym membership" = "Gym membership";',
        '"Member" = "Member";', '"Level" = "Level";', '"Club" = "Club";',
        '"Downtown" = "Downtown";']


def test_change_messages_are_keyed_as_pass_json_writes_them(client, api: Api) -> None:
    template = make_template(api, translations={"de": GERMAN})
    item = issue(api, template, fieldValues={"member": "Ada Lovelace", "level": "Gold"})
    changed = api.patch(f"/v1/passes/{item['id']}", {
        "fieldValues": {"member": "Grace Hopper", "level": "Silver"},
        "notificationMode": "notify"})
    assert changed.status_code == 200, changed.get_json()
    data = download(client, item)
    doc, _names = valid(data)
    primary, = doc["generic"]["primaryFields"]
    level = next(f for f in doc["generic"]["secondaryFields"] if f["key"] == "level")
    assert primary["changeMessage"] == "Member: %@"  # the default language's, made up
    assert level["changeMessage"] == "Level: %@"
    german = strings(data)["de.lproj/pass.strings"].decode("utf-16")
    assert '"Member: %@" = "Mitglied: %@";\n' in german
    assert '"Level: %@" = "Stufe: %@";\n' in german  # made up from the translated label


def test_a_default_language_of_its_own(client, api: Api) -> None:
    template = make_template(api, defaultLanguage="de-CH", description="Mitgliedskarte",
                             translations={"en": {"description": "Membership card"}})
    data = download(client, issue(api, template))
    assert valid(data)[0]["description"] == "Mitgliedskarte"
    files = strings(data)
    assert set(files) == {"en.lproj/pass.strings", "de-CH.lproj/pass.strings"}
    assert files["en.lproj/pass.strings"].decode("utf-16") == (
        '"Mitgliedskarte" = "Membership card";\n')
    assert files["de-CH.lproj/pass.strings"].decode("utf-16") == (
        '"Mitgliedskarte" = "Mitgliedskarte";\n')


def test_no_translations_no_lproj_files(client, api: Api) -> None:
    data = download(client, issue(api, make_template(api)))
    assert strings(data) == {}
    empty: dict[str, Any] = {"de": {}}
    assert strings(download(client, issue(api, make_template(api, translations=empty)))) == {}
