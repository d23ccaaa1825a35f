"""The designer's languages: a column of inputs per language next to the default texts, a
preview per language, and a round trip that keeps the translations as they were."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from werkzeug.datastructures import MultiDict

from tests.api.factories import EVENT, definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_data, text
from webapp.dashboard import designer

GERMAN = {"organizationName": "Acme Fitness", "description": "Mitgliedskarte",
          "fields": {"member": {"label": "Mitglied", "changeMessage": "Neu: %@"},
                     "club": {"label": "Verein", "value": "Innenstadt"}}}
EVENT_TRANSLATED = {**copy.deepcopy(EVENT), "defaultLanguage": "en-GB", "translations": {
    "de": {"description": "Konzertkarte", "fields": {"seat": {"label": "Platz"}},
           "event": {"name": "Die Show", "venue": {"name": "Halle", "address": "Hauptstr. 1"}}},
    "fr-CA": {"event": {"name": "Le spectacle"}}}}


@pytest.fixture
def template_id(api: Api) -> str:
    response = api.post("/v1/templates", {"name": "Gym", "type": "generic", "definition":
                                          definition(translations={"de": GERMAN})})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def url(template_id: str, tail: str = "") -> str:
    return f"/dashboard/test/templates/{template_id}{tail}"


def _inputs(state: dict[str, Any]) -> MultiDict[str, str]:
    """The translation inputs a browser posts for this form state."""
    posted: MultiDict[str, str] = MultiDict()
    for language, texts in state["translations"].items():
        posted.add("languages", language)
        for name, value in texts.items():
            posted.add(f"tr.{language}.{name}", value)
    return posted


@pytest.mark.parametrize("original", [definition(translations={"de": GERMAN}),
                                      EVENT_TRANSLATED])
def test_round_trip_keeps_the_translations(original: dict[str, Any]) -> None:
    state = designer.from_definition(original, "Name", 1)
    assert designer.to_definition(state, original["type"])["translations"] == (
        original["translations"])
    posted = _inputs(state)
    if "defaultLanguage" in original:
        posted["defaultLanguage"] = original["defaultLanguage"]
    again = designer.from_form(posted)
    assert (again["defaultLanguage"], again["translations"]) == (
        original.get("defaultLanguage", ""), state["translations"])


def test_designer_shows_a_column_per_language(dash: Dash, template_id: str) -> None:
    page = text(dash.get(url(template_id)))
    form = form_data(page, "design-form")
    assert form["languages"] == "de"
    assert form["tr.de.description"] == "Mitgliedskarte"
    assert form["tr.de.fields.member.label"] == "Mitglied"
    assert form["tr.de.fields.club.value"] == "Innenstadt"
    assert form["tr.de.fields.level.label"] == ""  # not translated yet: empty
    assert "tr.de.fields.member.value" not in form  # per-pass values stay as given
    assert "tr.de.logoText" not in form  # the design has no logo text
    assert '<td class="muted">Gym membership</td>' in page  # the default text beside it
    assert '<select id="preview-language" name="preview-language" form="design-form"' in page


def test_untouched_save_with_translations_makes_no_revision(dash: Dash, api: Api,
                                                            template_id: str) -> None:
    response = dash.post(url(template_id), form_data(text(dash.get(url(template_id))),
                                                     "design-form"), htmx=True, header=True)
    assert response.status_code == 200
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 1


def test_add_a_language_fill_it_in_and_save(dash: Dash, api: Api, template_id: str) -> None:
    form = form_data(text(dash.get(url(template_id))), "design-form")
    form.pop("languages")  # start from a design without its German column
    form = {k: v for k, v in form.items() if not k.startswith("tr.")}
    added = dash.post(url(template_id, "/form"), {**form, "new-language": " fr ",
                                                  "op": "addlang"}, htmx=True, header=True)
    assert added.status_code == 200
    form = form_data(text(added), "design-form")
    assert form["languages"] == "fr" and form["new-language"] == ""
    form.update({"tr.fr.description": "Carte de membre", "tr.fr.fields.level.label": "Niveau"})
    saved = dash.post(url(template_id), form, htmx=True, header=True)
    assert "Saved as revision 2." in text(saved)
    got = api.get(f"/v1/templates/{template_id}").get_json()["definition"]
    assert got["translations"] == {"fr": {"description": "Carte de membre",
                                          "fields": {"level": {"label": "Niveau"}}}}
    removed = dash.post(url(template_id, "/form"), {**form, "op": "removelang:fr"},
                        htmx=True, header=True)
    form = form_data(text(removed), "design-form")
    assert "languages" not in form and "tr.fr.description" not in form


def test_preview_switches_language(dash: Dash, template_id: str) -> None:
    form = form_data(text(dash.get(url(template_id))), "design-form")
    english = text(dash.post(url(template_id, "/preview"), form, htmx=True, header=True))
    german = text(dash.post(url(template_id, "/preview"), {**form, "preview-language": "de"},
                            htmx=True, header=True))
    assert "Downtown" in english and "Innenstadt" not in english
    assert "Innenstadt" in german and "Verein" in german and "Downtown" not in german
    assert '<option value="de" selected>de</option>' in german
    form["tr.de.fields.club.value"] = "Altstadt"  # unsaved words show at once
    again = text(dash.post(url(template_id, "/preview"), {**form, "preview-language": "de"},
                           htmx=True, header=True))
    assert "Altstadt" in again


def test_a_bad_translation_is_422_next_to_its_input(dash: Dash, api: Api,
                                                    template_id: str) -> None:
    form = form_data(text(dash.get(url(template_id))), "design-form")
    form["tr.de.fields.member.changeMessage"] = "Neu"
    response = dash.post(url(template_id), form, htmx=True, header=True)
    assert response.status_code == 422
    page = text(response)
    assert 'id="err-tr.de.fields.member.changeMessage"' in page
    assert ("The de translation of field member&#39;s change message must contain %@ where "
            "the new value goes.") in page
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 1


@pytest.mark.parametrize(("issue", "said"), [
    ({"path": "/translations/de/fields/seat/label", "code": "too_long",
      "message": "translations.de.fields.seat.label must be at most 64 characters."},
     "The de translation of field seat's label must be at most 64 characters."),
    ({"path": "/translations/fr-CA/organizationName", "code": "not_allowed",
      "message": "translations.fr-CA.organizationName has nothing to translate: x."},
     "The fr-CA translation's organization name has nothing to translate: x."),
    ({"path": "/translations/de/event/venue/address", "code": "too_long",
      "message": "translations.de.event.venue.address must be at most 500 characters."},
     "The de translation of the event's venue address must be at most 500 characters."),
    ({"path": "/translations/en", "code": "conflicting_member",
      "message": "translations.en is the default language: its texts are the definition's "
                 "own."},
     "The en translation is the default language: its texts are the definition's own."),
])
def test_translation_issues_are_said_in_words(issue: dict[str, str], said: str) -> None:
    assert designer.words(issue, {}) == said
    assert designer.input_for(issue["path"]).startswith(("tr.", "lang."))
