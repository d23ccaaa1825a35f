"""The designer never drops a member of a definition, shown on its form or not: definitions
that use every member the API's definition schema (/v1/openapi.json) accepts are saved
through the designer unchanged, and no new revision is made."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_fields, text
from webapp.dashboard.designer import keep

_SIZES = {"icon": (29, 29), "logo": (160, 50), "strip": (375, 123), "thumbnail": (90, 90),
          "background": (180, 220), "hero": (1032, 336)}

_TRANSLATION = {
    "organizationName": "Acme Sport", "description": "Mitgliedschaft", "logoText": "Acme DE",
    "fields": {"clubOwn": {"label": "Eigenes", "changeMessage": "Neu: %@"},
               "club": {"label": "Verein", "value": "Innenstadt"}},
}


def _pair(key: str, value: str, value_format: str) -> list[dict[str, Any]]:
    """A shared field and a per-pass one, every member of a field between them."""
    return [{"key": key, "label": key.title(), "binding": "shared", "value": value,
             "format": value_format, "changeMessage": f"{key.title()}: %@"},
            {"key": f"{key}Own", "label": f"Own {key}", "binding": "perPass",
             "required": True, "changeMessage": f"Own {key}: %@", "format": "text"}]


def _generic(images: dict[str, str]) -> dict[str, Any]:
    return {
        "schemaVersion": 1, "type": "generic", "description": "Gym membership",
        "organizationName": "Acme Gym", "logoText": "Acme",
        "colors": {"background": "#112233", "foreground": "#ffffff", "label": "#ffcc00"},
        "platforms": {"apple": True, "google": True},
        "images": {slot: images[slot] for slot in ("icon", "logo", "strip", "thumbnail")},
        "barcode": {"format": "pdf417", "value": "M-{{shortId}}", "altText": "{{shortId}}"},
        "config": {"fields": {
            "header": _pair("since", "2027-01-01", "date"),
            "primary": [{"key": "member", "label": "Member", "binding": "perPass",
                         "required": True, "changeMessage": "Now %@", "format": "text"}],
            "secondary": [*_pair("club", "Downtown", "text"),
                          {"key": "level", "label": "Level", "binding": "perPass"}],
            "auxiliary": _pair("points", "42", "number"),
            "back": _pair("terms", "Be kind.", "text")}},
        "expiresAt": "2028-01-01T00:00:00+01:00",
        "locations": [{"latitude": 52.52, "longitude": 13.405, "relevantText": "The gym"}],
        "redemption": {"mode": "single", "voidOnRedemption": True},
        "defaultLanguage": "en",
        "translations": {"de": _TRANSLATION},
    }


def _event(images: dict[str, str]) -> dict[str, Any]:
    return {
        "schemaVersion": 1, "type": "event_ticket", "description": "Concert ticket",
        "organizationName": "Acme Live",
        "colors": {"background": "#000000", "foreground": "#ffffff"},
        "platforms": {"apple": True, "google": False},
        "images": {slot: images[slot] for slot in ("logo", "background", "thumbnail", "hero")},
        "barcode": {"format": "qr", "perPass": True},
        "config": {"fields": {"primary": [{"key": "seat", "label": "Seat",
                                           "binding": "shared", "value": "Free seating",
                                           "format": "text", "changeMessage": "Seat: %@"}],
                              "secondary": [{"key": "gate", "label": "Gate",
                                             "binding": "perPass", "required": False}]}},
        "event": {"name": "The Show", "venue": {"name": "Hall", "address": "1 Main St",
                                                "location": {"latitude": 52.5,
                                                             "longitude": 13.4}},
                  "startsAt": "2027-01-01T20:00:00+01:00", "endsAt": "2027-01-01T23:00:00+01:00",
                  "doorsOpenAt": "2027-01-01T19:00:00+01:00", "category": "livePerformance",
                  "seatFields": {"section": "gate", "row": "gate", "number": "seat",
                                 "gate": "gate"}},
        "redemption": {"mode": "multiple", "maxUses": 3},
        "defaultLanguage": "de",
        "translations": {"en": {"event": {"name": "The show (EN)",
                                          "venue": {"name": "Hall (EN)",
                                                    "address": "1 Main Street"}}},
                         "fr": {"description": "Billet"}},
    }


def _stores(images: dict[str, str]) -> list[dict[str, Any]]:
    """A loyalty card (tiers with every member, sign-ups open), a gift card and a coupon."""
    base = {"schemaVersion": 1, "description": "Bean Club", "organizationName": "Bean Club",
            "colors": {"background": "#6b3e26", "foreground": "#ffffff"},
            "platforms": {"apple": True, "google": True},
            "images": {"logo": images["logo"], "strip": images["strip"]},
            "barcode": {"format": "qr"},
            "config": {"fields": {"secondary": [{"key": "member", "label": "Member",
                                                 "binding": "perPass"}]}}}
    tiers = [{"name": "Silver", "minLifetimePoints": 0},
             {"name": "Gold", "minLifetimePoints": 1000, "backgroundColor": "#1f1f1f",
              "foregroundColor": "#f5d061", "labelColor": "#ffffff"}]
    return [
        {**base, "type": "loyalty", "loyalty": {"programName": "Bean Club",
                                                "pointsLabel": "Beans", "tiers": tiers},
         "enrollment": {"enabled": True, "consent": "I agree to the club's rules.",
                        "fields": [{"key": "holderName", "required": True},
                                   {"key": "holderEmail", "required": True},
                                   {"key": "member", "required": False}]}},
        {**base, "type": "gift_card", "giftCard": {"currency": "EUR"}},
        {**base, "type": "coupon", "offer": {"title": "2 for 1", "provider": "Bean Club",
                                             "details": "Any two coffees.",
                                             "finePrint": "Once per visit."},
         "redemption": {"mode": "single", "voidOnRedemption": True}},
    ]


def _members(schema: dict[str, Any], schemas: dict[str, Any], path: str) -> Iterator[str]:
    """The member paths a JSON Schema accepts: `a.b`, `[]` for array items, `*` for the
    members of a map."""
    if "$ref" in schema:
        yield from _members(schemas[schema["$ref"].rsplit("/", 1)[1]], schemas, path)
        return
    for name, member in schema.get("properties", {}).items():
        if member == {"not": {}}:
            continue
        yield f"{path}.{name}".lstrip(".")
        yield from _members(member, schemas, f"{path}.{name}")
    if isinstance(schema.get("items"), dict):
        yield from _members(schema["items"], schemas, f"{path}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        yield f"{path}.*".lstrip(".")
        yield from _members(schema["additionalProperties"], schemas, f"{path}.*")


def _used(value: Any, path: str, maps: set[str]) -> Iterator[str]:
    """The member paths a definition uses, spelled as `_members` spells them."""
    if isinstance(value, dict):
        for name, member in value.items():
            step = f"{path}.*" if path in maps else f"{path}.{name}"
            yield step.lstrip(".")
            yield from _used(member, step.lstrip("."), maps)
    elif isinstance(value, list):
        for item in value:
            yield from _used(item, f"{path}[]", maps)


@pytest.fixture
def samples(api: Api, png: Any) -> list[dict[str, Any]]:
    images = {}
    for slot, size in _SIZES.items():
        uploaded = api.post("/v1/assets", {"slot": slot, "data": png(*size)})
        assert uploaded.status_code == 201, uploaded.get_json()
        images[slot] = uploaded.get_json()["id"]
    return [_generic(images), _event(images), *_stores(images)]


def test_the_samples_use_every_member_of_the_schema(api: Api,
                                                    samples: list[dict[str, Any]]) -> None:
    schemas = api.get("/v1/openapi.json").get_json()["components"]["schemas"]
    accepted = set(_members(schemas["Definition"], schemas, ""))
    maps = {name[:-2] for name in accepted if name.endswith(".*")}
    used = {name for sample in samples for name in _used(sample, "", maps)}
    # A member added to the schema needs a sample here: the save below then proves the
    # designer keeps it.
    assert accepted - used == set()


def test_saving_through_the_designer_changes_nothing(
        api: Api, dash: Dash, samples: list[dict[str, Any]]) -> None:
    for sample in samples:
        created = api.post("/v1/templates", {"name": "Kept", "type": sample["type"],
                                             "definition": sample})
        assert created.status_code == 201, created.get_json()
        template_id = created.get_json()["id"]
        form = form_fields(text(dash.get(f"/dashboard/test/templates/{template_id}")),
                           "design-form")
        saved = dash.post(f"/dashboard/test/templates/{template_id}", form, htmx=True,
                          header=True)
        assert saved.status_code == 200, text(saved)
        got = api.get(f"/v1/templates/{template_id}").get_json()
        assert got["definition"] == sample
        assert got["revision"] == 1


def test_a_label_changed_keeps_the_check_in(api: Api, dash: Dash,
                                            samples: list[dict[str, Any]]) -> None:
    sample = samples[0]
    template_id = api.post("/v1/templates", {"name": "Kept", "type": "generic",
                                             "definition": sample}).get_json()["id"]
    form = form_fields(text(dash.get(f"/dashboard/test/templates/{template_id}")),
                       "design-form")
    form["f-primary-0-label"] = "Name"
    assert dash.post(f"/dashboard/test/templates/{template_id}", form, htmx=True,
                     header=True).status_code == 200
    got = api.get(f"/v1/templates/{template_id}").get_json()
    assert got["revision"] == 2
    expected = copy.deepcopy(sample)
    expected["config"]["fields"]["primary"][0]["label"] = "Name"
    assert got["definition"] == expected


def test_a_member_the_form_does_not_know_is_kept() -> None:
    """Tomorrow's members: kept at any depth, in arrays by key; what the form shows is the
    form's to drop."""
    old = {"logoText": "A", "future": {"x": 1},
           "barcode": {"format": "qr", "later": True},
           "config": {"fields": {"primary": [{"key": "a", "label": "A", "soon": 1},
                                             {"key": "b", "label": "B"}]}}}
    echo = {"logoText": "A", "barcode": {"format": "qr"},
            "config": {"fields": {"primary": [{"key": "a", "label": "A"},
                                              {"key": "b", "label": "B"}]}}}
    new = {"barcode": {"format": "aztec"},
           "config": {"fields": {"primary": [{"key": "b", "label": "B"},
                                             {"key": "a", "label": "A2"}]}}}
    assert keep(new, old, echo) == {
        "future": {"x": 1}, "barcode": {"format": "aztec", "later": True},
        "config": {"fields": {"primary": [{"key": "b", "label": "B"},
                                          {"key": "a", "label": "A2", "soon": 1}]}}}
