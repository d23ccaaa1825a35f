"""A template's languages on Google Wallet: `translatedValues` in the class's and the
object's LocalizedStrings (and text modules' localized twins), accepted by the fake, which
checks every LocalizedString against Google's schema."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle
from webapp.wallets.google import languages

GERMAN = {"organizationName": "Acme Fitness", "description": "Mitgliedskarte",
          "fields": {"member": {"label": "Mitglied"}, "level": {"label": "Stufe"},
                     "club": {"label": "Verein", "value": "Innenstadt"}}}
EVENT_GERMAN = {"organizationName": "Acme Konzerte",
                "event": {"name": "Die Show", "venue": {"name": "Halle",
                                                        "address": "Hauptstr. 1"}},
                "fields": {"seat": {"label": "Platz"}}}


def template(api: Api, kind: str = "generic", **changes: Any) -> dict[str, Any]:
    response = api.post("/v1/templates", template_body(kind, **changes))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_generic_object_carries_translated_values(app: Flask, api: Api,
                                                  fake_google: FakeGoogle) -> None:
    made = template(api, translations={"de": GERMAN, "fr": {"organizationName": "Acme Sport"}})
    p = issue(api, made, fieldValues={"member": "Ada", "level": "Gold"})
    assert p["artifacts"]["google"] == {"ready": True, "reason": None}  # the fake accepted it
    obj = fake_google.resource("genericObject", f"{ISSUER}.{p['id']}")
    assert obj["cardTitle"] == {
        "defaultValue": {"language": "en", "value": "Acme Gym"},
        "translatedValues": [{"language": "de", "value": "Acme Fitness"},
                             {"language": "fr", "value": "Acme Sport"}]}
    assert obj["header"] == {"defaultValue": {"language": "en", "value": "Ada"}}  # per pass
    assert obj["subheader"] == {
        "defaultValue": {"language": "en", "value": "Member"},
        "translatedValues": [{"language": "de", "value": "Mitglied"}]}
    modules = {m["id"]: m for m in obj["textModulesData"]}
    assert modules["level"] == {
        "id": "level", "header": "Level", "body": "Gold",
        "localizedHeader": {"defaultValue": {"language": "en", "value": "Level"},
                            "translatedValues": [{"language": "de", "value": "Stufe"}]}}
    assert modules["club"]["localizedBody"] == {
        "defaultValue": {"language": "en", "value": "Downtown"},
        "translatedValues": [{"language": "de", "value": "Innenstadt"}]}


def test_event_ticket_class_carries_translated_values(app: Flask, api: Api,
                                                      fake_google: FakeGoogle) -> None:
    made = template(api, "event", platforms={"apple": False, "google": True},
                    defaultLanguage="en-GB", translations={"de": EVENT_GERMAN})
    p = issue(api, made, fieldValues={"seat": "A1"}, barcodeValue="X1")
    assert p["artifacts"]["google"] == {"ready": True, "reason": None}
    cls = fake_google.resource("eventTicketClass", f"{ISSUER}.{made['id']}_r1")
    assert cls["eventName"] == {
        "defaultValue": {"language": "en-GB", "value": "The Show"},
        "translatedValues": [{"language": "de", "value": "Die Show"}]}
    assert cls["venue"]["address"]["translatedValues"] == [
        {"language": "de", "value": "Hauptstr. 1"}]
    assert cls["issuerName"] == "Acme Live"
    assert cls["localizedIssuerName"] == {
        "defaultValue": {"language": "en-GB", "value": "Acme Live"},
        "translatedValues": [{"language": "de", "value": "Acme Konzerte"}]}
    obj = fake_google.resource("eventTicketObject", f"{ISSUER}.{p['id']}")
    assert obj["seatInfo"]["seat"] == {"defaultValue": {"language": "en-GB", "value": "A1"}}


def test_a_notified_change_is_told_in_every_language(app: Flask, api: Api,
                                                    fake_google: FakeGoogle,
                                                    served: str) -> None:
    german = {**GERMAN, "fields": {**GERMAN["fields"],
                                   "member": {"changeMessage": "Neues Mitglied: %@"}}}
    made = template(api, translations={"de": german})
    p = issue(api, made, fieldValues={"member": "Ada", "level": "Gold"})
    saved = api.client.get(f"/p/{p['shortId']}/google")
    assert fake_google.save(saved.headers["Location"]).status_code == 200
    changed = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"member": "Grace",
                                                                  "level": "Platinum"},
                                                  "notificationMode": "notify"})
    assert changed.status_code == 200, changed.get_json()
    update = api.get(f"/v1/pass-updates/{changed.get_json()['update']['id']}").get_json()
    assert update["delivery"]["google"]["status"] == "updated", update["delivery"]
    message, = fake_google.resource("genericObject", f"{ISSUER}.{p['id']}")["messages"]
    assert (message["header"], message["body"]) == ("Acme Gym", "Member: Grace\nLevel: Platinum")
    assert message["localizedHeader"] == {
        "defaultValue": {"language": "en", "value": "Acme Gym"},
        "translatedValues": [{"language": "de", "value": "Acme Fitness"}]}
    assert message["localizedBody"] == {
        "defaultValue": {"language": "en", "value": "Member: Grace\nLevel: Platinum"},
        "translatedValues": [{"language": "de",
                              "value": "Neues Mitglied: Grace\nStufe: Platinum"}]}


@pytest.mark.parametrize(("body", "problem"), [
    ({"cardTitle": {"defaultValue": {"language": "en", "value": "x"},
                    "translatedValues": [{"language": "de"}]}},
     "Invalid translatedValues in cardTitle"),
    ({"cardTitle": {"defaultValue": {"language": "en", "value": "x"},
                    "translatedValues": [{"language": "en", "value": "y"}]}},
     "Repeated language in translatedValues of cardTitle"),
    ({"cardTitle": {"defaultValue": {"language": "english!", "value": "x"}}},
     "Invalid defaultValue in cardTitle"),
    ({"cardTitle": "x"}, "Invalid LocalizedString in cardTitle"),
    ({"textModulesData": [{"id": "a", "localizedBody": {"value": "x"}}]},
     "Invalid LocalizedString in textModulesData.localizedBody"),
])
def test_the_fake_refuses_what_google_would(body: dict[str, Any], problem: str) -> None:
    from tests.support.fake_google import _localized_problem

    assert _localized_problem(body) == problem


def test_merge_marks_only_what_a_language_changes() -> None:
    default = {"cardTitle": {"defaultValue": {"language": "en", "value": "A"}},
               "textModulesData": [{"id": "x", "header": "H", "body": "B"}]}
    german = {"cardTitle": {"defaultValue": {"language": "en", "value": "A"}},
              "textModulesData": [{"id": "x", "header": "H", "body": "Be"}]}
    merged = languages.merge(default, {"de": german}, "fr")
    assert merged == {"cardTitle": {"defaultValue": {"language": "fr", "value": "A"}},
                      "textModulesData": [{"id": "x", "header": "H", "body": "B",
                                           "localizedBody": {
                                               "defaultValue": {"language": "fr", "value": "B"},
                                               "translatedValues": [
                                                   {"language": "de", "value": "Be"}]}}]}
    assert default["cardTitle"]["defaultValue"]["language"] == "en"  # not changed in place


def test_one_wording_reads_alike_in_both_wallets_and_on_the_holder_page(
        app: Flask, client: Any, api: Api, fake_google: FakeGoogle) -> None:
    """organizationName "Club" and the club field's label and value "Club": a translation of
    one alone is refused (Apple would translate both), and both translated alike read alike on a
    German iPhone, in Google Wallet and on the holder page."""
    from tests.apple.test_localization import strings
    from tests.apple.test_pkpass import download
    from tests.conftest import assert_error

    fields = template_body()["definition"]["config"]["fields"]
    fields["secondary"][1]["value"] = "Club"
    one = {"de": {"fields": {"club": {"value": "Verein"}}}}
    error = assert_error(api.post("/v1/templates", template_body(
        organizationName="Club", config={"fields": fields}, translations=one)),
        400, "invalid_request_error", "invalid_definition", "definition")
    [found] = error["issues"]
    assert (found["path"], found["code"]) == ("/translations/de/fields/club/value",
                                              "conflicting_member")
    assert "organizationName" in found["message"]

    both = {"de": {"organizationName": "Verein",  # the field's label "Club" as well
                   "fields": {"club": {"label": "Verein", "value": "Verein"}}}}
    made = template(api, organizationName="Club", config={"fields": fields},
                    translations=both)
    p = issue(api, made, fieldValues={"member": "Ada"})
    german = strings(download(client, p))["de.lproj/pass.strings"].decode("utf-16")
    assert '"Club" = "Verein";' in german
    obj = fake_google.resource("genericObject", f"{ISSUER}.{p['id']}")
    club = {m["id"]: m for m in obj["textModulesData"]}["club"]
    assert obj["cardTitle"]["translatedValues"] == [{"language": "de", "value": "Verein"}]
    assert club["localizedBody"]["translatedValues"] == [{"language": "de", "value": "Verein"}]
    html = client.get(f"/p/{p['shortId']}", headers={"Accept-Language": "de"}).get_data(
        as_text=True)
    assert html.count("Verein") >= 3 and "Club" not in html
