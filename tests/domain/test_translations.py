"""Translations in a definition: their issues, a definition in one language, a reader's
language."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webapp.domain import translations
from webapp.domain.definition import validate


def design(**changes: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "schemaVersion": 1, "type": "event_ticket", "description": "Concert ticket",
        "organizationName": "Acme Live", "logoText": "Acme",
        "colors": {"background": "#000000", "foreground": "#ffffff"},
        "platforms": {"apple": True, "google": True},
        "event": {"name": "The Show", "venue": {"name": "Hall", "address": "1 Main St"},
                  "startsAt": "2027-01-01T20:00:00Z"},
        "config": {"fields": {
            "primary": [{"key": "seat", "label": "Seat", "binding": "perPass"}],
            "secondary": [
                {"key": "gate", "label": "Gate", "binding": "shared", "value": "North",
                 "changeMessage": "Gate now %@"},
                {"key": "price", "label": "Price", "binding": "shared", "value": 25,
                 "format": "number"}]}},
    }
    d.update(changes)
    return d


GERMAN = {"organizationName": "Acme Live GmbH", "description": "Konzertkarte",
          "logoText": "Acme DE",
          "fields": {"seat": {"label": "Platz", "changeMessage": "Neuer Platz: %@"},
                     "gate": {"label": "Eingang", "value": "Nord",
                              "changeMessage": "Eingang jetzt %@"}},
          "event": {"name": "Die Show", "venue": {"name": "Halle", "address": "Hauptstr. 1"}}}


def issues(d: dict[str, Any]) -> list[tuple[str, str]]:
    return [(issue["path"], issue["code"]) for issue in validate(d, "event_ticket")]


def test_a_full_translation_is_valid() -> None:
    assert validate(design(defaultLanguage="en", translations={"de": GERMAN, "fr-CA": {},
                                                                "zh-Hans": {}, "es-419": {}}),
                    "event_ticket") == []


def test_language_tags_are_checked() -> None:
    found = issues(design(defaultLanguage="english",
                          translations={"DE": {}, "de_AT": {}, "d": {}, "fr-ca": {}}))
    assert found == [("/defaultLanguage", "invalid_value"), ("/translations/DE", "invalid_key"),
                     ("/translations/de_AT", "invalid_key"), ("/translations/d", "invalid_key"),
                     ("/translations/fr-ca", "invalid_key")]
    assert issues(design(defaultLanguage=7)) == [("/defaultLanguage", "invalid_type")]


def test_the_default_language_is_not_a_translation() -> None:
    assert issues(design(translations={"en": {}})) == [("/translations/en", "conflicting_member")]
    assert issues(design(defaultLanguage="de", translations={"en": {}})) == []
    message = validate(design(translations={"en": {}}), "event_ticket")[0]["message"]
    assert message == ("translations.en is the default language: its texts are the "
                       "definition's own.")


def test_the_number_of_languages_is_bounded() -> None:
    many = {f"a{chr(97 + i // 26)}{chr(97 + i % 26)}"[:3]: {} for i in range(31)}
    assert len(many) == 31
    assert issues(design(translations=many)) == [("/translations", "too_many")]
    del many[next(iter(many))]
    assert issues(design(translations=many)) == []


def test_only_known_texts_can_be_translated() -> None:
    found = issues(design(translations={"de": {
        "name": "x", "fields": {"nope": {"label": "x"}, "seat": {"note": "x"}},
        "event": {"name": "x", "startsAt": "x", "venue": {"name": "x", "city": "x"}}}}))
    assert found == [("/translations/de/name", "unknown_member"),
                     ("/translations/de/fields/nope", "unknown_member"),
                     ("/translations/de/fields/seat/note", "unknown_member"),
                     ("/translations/de/event/startsAt", "unknown_member"),
                     ("/translations/de/event/venue/city", "unknown_member")]


def test_texts_have_the_definitions_bounds_and_types() -> None:
    found = issues(design(translations={"de": {
        "organizationName": "x" * 65, "description": "", "logoText": 5,
        "fields": {"seat": {"label": "x" * 65}, "gate": {"value": "x" * 501,
                                                         "changeMessage": "no marker"}},
        "event": {"venue": "Halle"}}}))
    assert found == [("/translations/de/organizationName", "too_long"),
                     ("/translations/de/description", "too_short"),
                     ("/translations/de/logoText", "invalid_type"),
                     ("/translations/de/fields/seat/label", "too_long"),
                     ("/translations/de/fields/gate/value", "too_long"),
                     ("/translations/de/fields/gate/changeMessage", "invalid_change_message"),
                     ("/translations/de/event/venue", "invalid_type")]
    assert issues(design(translations=[])) == [("/translations", "invalid_type")]
    assert issues(design(translations={"de": "Hallo"})) == [("/translations/de", "invalid_type")]


def test_per_pass_values_and_formatted_values_stay_as_given() -> None:
    found = validate(design(translations={"de": {"fields": {
        "seat": {"value": "x"}, "price": {"value": "25 Euro"}}}}), "event_ticket")
    assert [(i["path"], i["code"], i["message"]) for i in found] == [
        ("/translations/de/fields/seat/value", "not_allowed",
         "translations.de.fields.seat.value has nothing to translate: each pass brings its "
         "own value, which stays as given."),
        ("/translations/de/fields/price/value", "not_allowed",
         "translations.de.fields.price.value has nothing to translate: wallets write "
         "numbers and dates in the reader's language themselves.")]


def test_a_text_the_definition_lacks_cannot_be_translated() -> None:
    d = design(translations={"de": {"logoText": "x", "event": {"venue": {"address": "x"}}}})
    del d["logoText"]
    del d["event"]["venue"]["address"]
    assert issues(d) == [("/translations/de/logoText", "not_allowed"),
                         ("/translations/de/event/venue/address", "not_allowed")]
    generic = design(type="generic", translations={"de": {"event": {"name": "x"}}})
    del generic["event"]
    assert [(i["path"], i["code"]) for i in validate(generic, "generic")] == [
        ("/translations/de/event", "not_allowed")]


def test_one_wording_has_one_translation_per_language() -> None:
    d = design(translations={"de": {"fields": {"seat": {"label": "Sitz"},
                                               "gate": {"label": "Sitz"}}}})
    d["config"]["fields"]["secondary"][0]["label"] = "Seat"
    assert issues(d) == []  # the same words for the same wording
    d["translations"]["de"]["fields"]["gate"]["label"] = "Platz"
    assert issues(d) == [("/translations/de/fields/gate/label", "conflicting_member")]


def test_localize_replaces_the_texts_and_keeps_the_rest() -> None:
    d = design(translations={"de": GERMAN})
    german = translations.localize(d, "de")
    assert "translations" not in german
    assert (german["organizationName"], german["description"], german["logoText"]) == (
        "Acme Live GmbH", "Konzertkarte", "Acme DE")
    seat, = german["config"]["fields"]["primary"]
    gate, price = german["config"]["fields"]["secondary"]
    assert seat == {"key": "seat", "label": "Platz", "binding": "perPass",
                    "changeMessage": "Neuer Platz: %@"}
    assert (gate["label"], gate["value"], gate["changeMessage"]) == (
        "Eingang", "Nord", "Eingang jetzt %@")
    assert price["value"] == 25
    assert german["event"]["name"] == "Die Show"
    assert german["event"]["venue"] == {"name": "Halle", "address": "Hauptstr. 1"}
    assert german["colors"] == d["colors"]
    assert d["organizationName"] == "Acme Live"  # the original is untouched
    assert translations.localize(d, "en") is d
    assert translations.localize(d, "fr") is d


def test_languages_and_the_default() -> None:
    assert translations.languages(design()) == []
    d = design(defaultLanguage="de", translations={"en": {}, "fr": {}})
    assert translations.default_language(d) == "de"
    assert translations.languages(d) == ["en", "fr"]
    assert translations.default_language(design()) == "en"


def test_negotiate_takes_the_readers_first_language_the_pass_has() -> None:
    d = design(translations={"de": {}, "fr-CA": {}, "pt-BR": {}})
    assert translations.negotiate(["de-AT", "en"], d) == "de"
    assert translations.negotiate(["fr", "de"], d) == "fr-CA"
    assert translations.negotiate(["fr-ca"], d) == "fr-CA"
    assert translations.negotiate(["it", "pt_BR"], d) == "pt-BR"
    assert translations.negotiate(["it", "ja"], d) == "en"
    assert translations.negotiate([], d) == "en"
    assert translations.negotiate(["en-GB", "de"], d) == "en"


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(["de", "en", "fields", "seat", "label", "value", "event",
                                       "venue", "name", "x"]), children, max_size=3),
    max_leaves=12)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=_json, default=_json)
def test_fuzz_translations_never_raise(value: object, default: object) -> None:
    d = design(translations=value, defaultLanguage=default)
    for issue in validate(copy.deepcopy(d), "event_ticket"):
        assert issue["path"].startswith(("/translations", "/defaultLanguage"))
    translations.localize(d, "de")
    translations.negotiate(["de"], d)


def test_a_wording_translated_in_one_member_and_not_another_is_refused() -> None:
    """Apple's pass.strings maps a wording, so a German iPhone would translate both texts
    while Google Wallet and the holder page translated one."""
    d = design(organizationName="Gate", translations={"de": {"fields": {
        "gate": {"value": "Nord", "label": "Tor"}}}})
    [issue] = validate(d, "event_ticket")
    assert (issue["path"], issue["code"]) == ("/translations/de/fields/gate/label",
                                              "conflicting_member")
    assert "organizationName" in issue["message"] and '"Gate"' in issue["message"]
    d["translations"]["de"]["organizationName"] = "Tor"
    assert issues(d) == []  # translated alike: every wallet reads "Tor"
    del d["translations"]["de"]["fields"]["gate"]["label"]
    assert issues(d) == [("/translations/de/organizationName", "conflicting_member")]


def test_two_labels_of_one_wording_are_translated_alike_or_not_at_all() -> None:
    d = design(translations={"de": {"fields": {"seat": {"label": "Platz"}}}})
    d["config"]["fields"]["secondary"][0]["label"] = "Seat"  # gate's label is Seat too
    [issue] = validate(d, "event_ticket")
    assert (issue["path"], issue["code"]) == ("/translations/de/fields/seat/label",
                                              "conflicting_member")
    assert "config.fields.gate.label" in issue["message"]
    # A change message made from a label counts as well: "Seat: %@" is seat's, and gate's
    # own change message now says the same in English but not in German.
    d["translations"]["de"]["fields"]["gate"] = {"label": "Platz"}
    d["config"]["fields"]["secondary"][0]["changeMessage"] = "Seat: %@"
    d["translations"]["de"]["fields"]["seat"]["changeMessage"] = "Neuer Platz: %@"
    assert issues(d) == [("/translations/de/fields/seat/changeMessage", "conflicting_member")]
