"""Definition schema v1: every rule, the read helpers, and a fuzz test that validate never fails."""

from __future__ import annotations

import copy
import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.factories import coupon_definition, gift_card_definition, loyalty_definition
from webapp.domain import definition as rules
from webapp.domain.definition import (
    GROUP_LIMITS,
    MAX_DEFINITION_CHARACTERS,
    MAX_VALUE_LENGTH,
    SLOTS,
    validate,
)
from webapp.domain.definition_read import (
    fields,
    image_refs,
    per_pass_fields,
    required_fields,
    takes_barcode_value,
)
from webapp.domain.formats import parse_datetime

# -- builders ---------------------------------------------------------------------------------


def minimal() -> dict:
    return {
        "schemaVersion": 1,
        "type": "generic",
        "description": "Member card",
        "organizationName": "Acme",
        "colors": {"background": "#112233", "foreground": "#FFFFFF"},
        "platforms": {"apple": True, "google": False},
        "config": {"fields": {}},
    }


def shared(name: str, value: object = "x", **extra: object) -> dict:
    return {"key": name, "label": name.title(), "binding": "shared", "value": value, **extra}


def per_pass(name: str, **extra: object) -> dict:
    return {"key": name, "label": name.title(), "binding": "perPass", **extra}


def with_fields(**groups: list) -> dict:
    d = minimal()
    d["config"]["fields"] = groups
    return d


def full_event() -> dict:
    return {
        "schemaVersion": 1,
        "type": "event_ticket",
        "description": "Summer concert ticket",
        "organizationName": "Acme Events",
        "logoText": "Acme",
        "colors": {"background": "#1a2b3c", "foreground": "#FFFFFF", "label": "#abcdef"},
        "platforms": {"apple": True, "google": True},
        # Every slot an event ticket shows: a strip would exclude background and thumbnail.
        "images": {slot: f"asset_{slot}" for slot in SLOTS if slot != "strip"},
        "barcode": {"format": "qr", "value": "T-{{shortId}}-{{passId}}", "perPass": False,
                    "altText": "{{shortId}}"},
        "config": {"fields": {
            "header": [per_pass("seat", required=True, changeMessage="Seat now %@")],
            "primary": [shared("title", "Summer concert")],
            "secondary": [shared("price", 12.5, format="number"),
                          shared("day", "2025-06-01", format="date"),
                          shared("doors", "2025-06-01T18:00:00Z", format="dateTime"),
                          per_pass("holder", required=False, format="text")],
            "auxiliary": [shared("count", "42", format="number", required=False)],
            "back": [shared("terms", "No refunds.", changeMessage="%@")],
        }},
        "event": {
            "name": "Summer concert",
            "venue": {"name": "Town hall", "address": "1 Main St",
                      "location": {"latitude": 52.37, "longitude": 4.89}},
            "startsAt": "2025-06-01T19:30:00+02:00",
            "endsAt": "2025-06-01T23:00:00+02:00",
            "doorsOpenAt": "2025-06-01T18:30:00+02:00",
            "category": "conference",
            "seatFields": {"number": "seat", "row": "holder", "section": "title"},
        },
        "expiresAt": "2025-06-02T00:00:00Z",
        "locations": [{"latitude": 52.37, "longitude": 4.89, "relevantText": "Welcome"},
                      {"latitude": -90, "longitude": 180}],
    }


def found(definition: object, template_type: str = "generic") -> list[tuple[str, str]]:
    return [(issue["path"], issue["code"]) for issue in validate(definition, template_type)]


def event_found(event: object) -> list[tuple[str, str]]:
    d = full_event()
    d["event"] = event
    return found(d, "event_ticket")


# -- valid definitions ------------------------------------------------------------------------


def test_minimal_generic_is_valid() -> None:
    assert validate(minimal(), "generic") == []


def test_full_event_ticket_is_valid() -> None:
    assert validate(full_event(), "event_ticket") == []


def test_validate_does_not_change_the_definition() -> None:
    d = full_event()
    d["extra"] = [1, {"x": None}]
    before = copy.deepcopy(d)
    validate(d, "generic")
    assert d == before


# -- root -------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, [], "x", 1, True, 1.5, [minimal()]])
def test_root_must_be_an_object(value: object) -> None:
    issues = validate(value, "generic")
    assert [(i["path"], i["code"]) for i in issues] == [("", "invalid_type")]
    assert "object" in issues[0]["message"]


def test_empty_object_lists_every_required_member_in_schema_order() -> None:
    assert found({}) == [("/schemaVersion", "required"), ("/type", "required"),
                         ("/description", "required"), ("/organizationName", "required"),
                         ("/colors", "required"), ("/platforms", "required"),
                         ("/config", "required")]


@pytest.mark.parametrize("member", ["schemaVersion", "type", "description", "organizationName",
                                    "colors", "platforms", "config"])
def test_each_required_root_member(member: str) -> None:
    d = minimal()
    del d[member]
    assert found(d) == [(f"/{member}", "required")]


@pytest.mark.parametrize(("value", "code"), [
    (True, "invalid_type"), (False, "invalid_type"), ("1", "invalid_type"),
    (1.0, "invalid_type"), (None, "invalid_type"), (2, "invalid_value"), (0, "invalid_value"),
    pytest.param(10**5000, "invalid_value", id="huge-int"),
])
def test_schema_version_must_be_integer_one(value: object, code: str) -> None:
    d = minimal()
    d["schemaVersion"] = value
    assert found(d) == [("/schemaVersion", code)]


def test_schema_version_true_names_the_boolean() -> None:
    d = minimal()
    d["schemaVersion"] = True
    assert "boolean" in validate(d, "generic")[0]["message"]


@pytest.mark.parametrize(("value", "code"), [
    ("boarding_pass", "invalid_value"), (1, "invalid_type"), ("", "invalid_value"),
    ("event_ticket", "type_mismatch"),
])
def test_type(value: object, code: str) -> None:
    d = minimal()
    d["type"] = value
    assert found(d) == [("/type", code)]


def test_type_mismatch_for_event_ticket_template() -> None:
    d = full_event()
    d["type"] = "generic"
    assert found(d, "event_ticket") == [("/type", "type_mismatch")]


@pytest.mark.parametrize(("member", "value", "code"), [
    ("description", "", "too_short"),
    ("description", "d" * 201, "too_long"),
    ("description", 5, "invalid_type"),
    ("organizationName", "", "too_short"),
    ("organizationName", "o" * 65, "too_long"),
    ("organizationName", None, "invalid_type"),
    ("logoText", "l" * 65, "too_long"),
    ("logoText", ["x"], "invalid_type"),
])
def test_root_strings(member: str, value: object, code: str) -> None:
    d = minimal()
    d[member] = value
    assert found(d) == [(f"/{member}", code)]


@pytest.mark.parametrize(("member", "value"), [
    ("description", "d" * 200), ("organizationName", "o" * 64), ("logoText", ""),
    ("logoText", "l" * 64), ("description", "é"),
])
def test_root_strings_at_their_limits(member: str, value: str) -> None:
    d = minimal()
    d[member] = value
    assert found(d) == []


def test_unknown_root_member() -> None:
    d = minimal()
    d["colour"] = "#000000"
    issues = validate(d, "generic")
    assert [(i["path"], i["code"]) for i in issues] == [("/colour", "unknown_member")]
    assert "colour" in issues[0]["message"]


# -- colors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["112233", "#12345", "#1234567", "#ggg000", "#11223",
                                   "#112233\n", " #112233", "red",
                                   "#\uff11\uff11\uff12\uff12\uff13\uff13"])
def test_bad_colour(value: str) -> None:
    d = minimal()
    d["colors"]["background"] = value
    issues = validate(d, "generic")
    assert [(i["path"], i["code"]) for i in issues] == [("/colors/background", "invalid_color")]
    assert issues[0]["message"] == "colors.background must be a colour like #1a2b3c."


def test_colour_members() -> None:
    d = minimal()
    d["colors"] = {"foreground": 0xFFFFFF, "label": "#zz0000", "border": "#000000"}
    assert found(d) == [("/colors/foreground", "invalid_type"), ("/colors/label", "invalid_color"),
                        ("/colors/border", "unknown_member"), ("/colors/background", "required")]


def test_colors_must_be_an_object() -> None:
    d = minimal()
    d["colors"] = ["#000000"]
    assert found(d) == [("/colors", "invalid_type")]


# -- platforms --------------------------------------------------------------------------------


def test_no_platform() -> None:
    d = minimal()
    d["platforms"] = {"apple": False, "google": False}
    assert found(d) == [("/platforms", "no_platform")]


def test_platforms_members() -> None:
    d = minimal()
    d["platforms"] = {"apple": "yes", "samsung": True}
    assert found(d) == [("/platforms/apple", "invalid_type"),
                        ("/platforms/samsung", "unknown_member"),
                        ("/platforms/google", "required")]


@pytest.mark.parametrize("value", [0, 1, None, "true"])
def test_platform_flags_are_booleans(value: object) -> None:
    d = minimal()
    d["platforms"]["google"] = value
    assert found(d) == [("/platforms/google", "invalid_type")]


# -- images -----------------------------------------------------------------------------------


def test_images() -> None:
    d = minimal()
    d["images"] = {"logo": "asset_1", "banner": "asset_2", "icon": 7, "strip": "img_3",
                   "hero": ""}
    assert found(d) == [("/images/banner", "unknown_slot"), ("/images/icon", "invalid_value"),
                        ("/images/strip", "invalid_value"), ("/images/hero", "invalid_value")]


def test_footer_is_refused_saying_why() -> None:
    d = minimal()
    d["images"] = {"footer": "asset_1"}
    [issue] = validate(d, "generic")
    assert issue == {
        "path": "/images/footer", "code": "not_allowed",
        "message": "images.footer is not allowed: Apple Wallet shows a footer image only on "
                   "boarding passes, which this service does not issue, and Google Wallet has "
                   "no footer image."}


def test_background_is_refused_on_generic_templates() -> None:
    d = minimal()
    d["images"] = {"background": "asset_1", "thumbnail": "asset_2"}
    [issue] = validate(d, "generic")
    assert issue["path"] == "/images/background" and issue["code"] == "not_allowed"
    assert "only on event tickets" in issue["message"]


def test_images_no_wallet_shows_are_refused() -> None:
    generic = minimal()
    generic["images"] = {"strip": "asset_1", "hero": "asset_2"}
    assert found(generic) == [("/images/strip", "conflicting_member")]
    generic["images"] = {"strip": "asset_1"}  # Google's hero when there is no hero
    assert found(generic) == []
    event = full_event()
    event["images"] = {"strip": "asset_1", "background": "asset_2", "thumbnail": "asset_3"}
    assert found(event, "event_ticket") == [("/images/background", "conflicting_member"),
                                            ("/images/thumbnail", "conflicting_member")]


def test_images_must_be_an_object() -> None:
    d = minimal()
    d["images"] = ["asset_1"]
    assert found(d) == [("/images", "invalid_type")]


# -- barcode ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("barcode", "expected"), [
    ({"format": "qr"}, []),
    ({"format": "code128", "value": "FIXED-123", "altText": ""}, []),
    ({"format": "aztec", "perPass": True, "altText": "{{passId}}"}, []),
    ({}, [("/barcode/format", "required")]),
    ({"format": "ean13"}, [("/barcode/format", "invalid_value")]),
    ({"format": 1}, [("/barcode/format", "invalid_type")]),
    ({"format": "qr", "value": ""}, [("/barcode/value", "too_short")]),
    ({"format": "qr", "value": "v" * 501}, [("/barcode/value", "too_long")]),
    ({"format": "qr", "value": 123}, [("/barcode/value", "invalid_type")]),
    ({"format": "qr", "value": "{{name}}"}, [("/barcode/value", "unknown_placeholder")]),
    ({"format": "qr", "value": "{{ shortId }}"}, [("/barcode/value", "unknown_placeholder")]),
    ({"format": "qr", "altText": "{{x}} {{y}}"}, [("/barcode/altText", "unknown_placeholder")]),
    ({"format": "qr", "altText": "a" * 501}, [("/barcode/altText", "too_long")]),
    ({"format": "qr", "perPass": True, "value": "{{shortId}}"},
     [("/barcode/value", "conflicting_member")]),
    ({"format": "qr", "perPass": "yes"}, [("/barcode/perPass", "invalid_type")]),
    ({"format": "qr", "size": 3}, [("/barcode/size", "unknown_member")]),
    ("qr", [("/barcode", "invalid_type")]),
])
def test_barcode(barcode: object, expected: list) -> None:
    d = minimal()
    d["barcode"] = barcode
    assert found(d) == expected


def test_barcode_value_at_its_limit() -> None:
    d = minimal()
    d["barcode"] = {"format": "pdf417", "value": "v" * MAX_VALUE_LENGTH}
    assert found(d) == []


def test_unknown_placeholder_message_names_it() -> None:
    d = minimal()
    d["barcode"] = {"format": "qr", "value": "{{member}}-{{shortId}}"}
    [issue] = validate(d, "generic")
    assert "{{member}}" in issue["message"]


# -- config and groups ------------------------------------------------------------------------


@pytest.mark.parametrize(("config", "expected"), [
    ({}, [("/config/fields", "required")]),
    ([], [("/config", "invalid_type")]),
    ({"fields": []}, [("/config/fields", "invalid_type")]),
    ({"fields": {}, "layout": "x"}, [("/config/layout", "unknown_member")]),
    ({"fields": {"footer": []}}, [("/config/fields/footer", "unknown_member")]),
    ({"fields": {"primary": {}}}, [("/config/fields/primary", "invalid_type")]),
    ({"fields": {"back": None}}, [("/config/fields/back", "invalid_type")]),
    ({"fields": {"header": ["x", None]}},
     [("/config/fields/header/0", "invalid_type"), ("/config/fields/header/1", "invalid_type")]),
])
def test_config(config: object, expected: list) -> None:
    d = minimal()
    d["config"] = config
    assert found(d) == expected


@pytest.mark.parametrize(("group", "limit"), sorted(GROUP_LIMITS.items()))
def test_group_limits(group: str, limit: int) -> None:
    at_limit = [shared(f"f{i}") for i in range(limit)]
    assert found(with_fields(**{group: at_limit})) == []
    over = [*at_limit, shared("extra")]
    assert found(with_fields(**{group: over})) == [(f"/config/fields/{group}", "too_many")]


def test_fields_past_the_limit_are_not_checked() -> None:
    d = with_fields(primary=[shared("a"), shared("b", value="")])
    assert found(d) == [("/config/fields/primary", "too_many")]


def test_a_definition_over_its_size_is_one_issue() -> None:
    d = minimal()
    d["logoText"] = "x" * MAX_DEFINITION_CHARACTERS
    d["colors"] = "not an object"
    issues = validate(d, "generic")
    assert [(i["path"], i["code"]) for i in issues] == [("", "too_large")]
    assert issues[0]["message"].startswith("The definition is 65,")


# -- fields -----------------------------------------------------------------------------------


def field_found(field: object, group: str = "back") -> list[tuple[str, str]]:
    prefix = f"/config/fields/{group}/0"
    issues = found(with_fields(**{group: [field]}))
    return [(path.removeprefix(prefix), code) for path, code in issues]


@pytest.mark.parametrize("key", ["a", "A1", "seat_row", "x" * 64, "Z_9"])
def test_good_keys(key: str) -> None:
    assert field_found(shared(key)) == []


@pytest.mark.parametrize("key", ["", "1abc", "_a", "a-b", "a b", "x" * 65, "é", "a\n", "a.b"])
def test_bad_keys(key: str) -> None:
    assert field_found(shared(key, label="L")) == [("/key", "invalid_key")]


def test_duplicate_key_across_groups() -> None:
    d = with_fields(header=[shared("seat")], back=[per_pass("row"), per_pass("seat")],
                    secondary=[shared("seat"), shared("Seat")])
    assert found(d) == [("/config/fields/back/1/key", "duplicate_key"),
                        ("/config/fields/secondary/0/key", "duplicate_key")]


def test_field_required_members() -> None:
    assert field_found({}) == [("/key", "required"), ("/label", "required"),
                               ("/binding", "required")]


@pytest.mark.parametrize(("field", "expected"), [
    (shared("a", label="l" * 65), [("/label", "too_long")]),
    (shared("a", label=""), []),
    (shared("a", label=None), [("/label", "invalid_type")]),
    (shared("a", key=5), [("/key", "invalid_type")]),
    (shared("a", binding="fixed"), [("/binding", "invalid_value")]),
    (shared("a", binding=True), [("/binding", "invalid_type")]),
    (shared("a", required=True), [("/required", "invalid_value")]),
    (shared("a", required=False), []),
    (per_pass("a", required="yes"), [("/required", "invalid_type")]),
    (per_pass("a", required=True), []),
    (per_pass("a", value="x"), [("/value", "conflicting_member")]),
    ({"key": "a", "label": "A", "binding": "shared"}, [("/value", "required")]),
    (shared("a", value=""), [("/value", "too_short")]),
    (shared("a", value="v" * 501), [("/value", "too_long")]),
    (shared("a", value="v" * 500), []),
    (shared("a", value=True), [("/value", "invalid_type")]),
    (shared("a", value=None), [("/value", "invalid_type")]),
    (shared("a", value=["x"]), [("/value", "invalid_type")]),
    (shared("a", value=0), []),
    (shared("a", value=-3.25), []),
    (shared("a", value=float("inf")), [("/value", "invalid_value")]),
    (shared("a", value=float("nan")), [("/value", "invalid_value")]),
    (shared("a", changeMessage="Now %@"), []),
    (shared("a", changeMessage="Changed"), [("/changeMessage", "invalid_change_message")]),
    (shared("a", changeMessage=""), [("/changeMessage", "invalid_change_message")]),
    (shared("a", changeMessage="%@" + "c" * 199), [("/changeMessage", "too_long")]),
    (shared("a", changeMessage="%@" + "c" * 198), []),
    (shared("a", changeMessage=1), [("/changeMessage", "invalid_type")]),
    (shared("a", format="currency"), [("/format", "invalid_value")]),
    (shared("a", format=None), [("/format", "invalid_type")]),
    (shared("a", colour="red", style=1), [("/colour", "unknown_member"),
                                          ("/style", "unknown_member")]),
    ({"binding": "perPass", "extra": 1}, [("/extra", "unknown_member"), ("/key", "required"),
                                          ("/label", "required")]),
])
def test_field_rules(field: dict, expected: list) -> None:
    assert field_found(field) == expected


@pytest.mark.parametrize(("fmt", "value", "ok"), [
    ("text", 12, True),
    ("number", 12, True),
    ("number", 12.5, True),
    ("number", "12", True),
    ("number", "-1.5e3", True),
    ("number", ".5", True),
    ("number", "abc", False),
    ("number", "1,5", False),
    ("number", "inf", False),
    ("number", "NaN", False),
    ("number", " 1", False),
    ("number", "١٢", False),
    ("date", "2025-06-01", True),
    ("date", "2025-06-01T10:00:00Z", True),
    ("date", "2025-13-01", False),
    ("date", "2025-02-30", False),
    ("date", "01/06/2025", False),
    ("date", 20250601, False),
    ("dateTime", "2025-06-01T10:00:00+02:00", True),
    ("dateTime", "2025-06-01", False),
    ("dateTime", "2025-06-01T10:00:00", False),
    ("dateTime", 1717236000, False),
])
def test_shared_value_matches_format(fmt: str, value: object, ok: bool) -> None:
    expected = [] if ok else [("/value", "invalid_value")]
    assert field_found(shared("a", value, format=fmt)) == expected


def test_per_pass_field_format_needs_no_value() -> None:
    assert field_found(per_pass("a", format="dateTime", required=True)) == []


# -- event ------------------------------------------------------------------------------------


def test_event_is_required_for_event_ticket() -> None:
    d = full_event()
    del d["event"]
    assert found(d, "event_ticket") == [("/event", "required")]


def test_event_not_allowed_on_generic() -> None:
    d = minimal()
    d["event"] = full_event()["event"]
    assert found(d) == [("/event", "not_allowed")]


def test_event_not_allowed_is_not_descended() -> None:
    d = minimal()
    d["event"] = {"bogus": 1}
    assert found(d) == [("/event", "not_allowed")]


def test_minimal_event() -> None:
    event = {"name": "Gig", "venue": {"name": "Hall"}, "startsAt": "2025-06-01T19:30:00Z"}
    assert event_found(event) == []


@pytest.mark.parametrize(("change", "expected"), [
    ({"endsAt": "2025-06-01T19:30:00+02:00"}, [("/event/endsAt", "invalid_range")]),
    ({"endsAt": "2025-06-01T17:00:00Z"}, [("/event/endsAt", "invalid_range")]),
    ({"endsAt": "2025-06-01T17:31:00Z"}, []),
    ({"doorsOpenAt": "2025-06-01T19:31:00+02:00"}, [("/event/doorsOpenAt", "invalid_range")]),
    ({"doorsOpenAt": "2025-06-01T17:30:00Z"}, []),
    ({"startsAt": "2025-06-01T19:30:00"}, [("/event/startsAt", "invalid_value")]),
    ({"startsAt": "tomorrow"}, [("/event/startsAt", "invalid_value")]),
    ({"startsAt": 1717263000}, [("/event/startsAt", "invalid_type")]),
    ({"endsAt": "2025-06-01 23:00:00Z"}, [("/event/endsAt", "invalid_value")]),
    ({"doorsOpenAt": None}, [("/event/doorsOpenAt", "invalid_type")]),
    ({"name": ""}, [("/event/name", "too_short")]),
    ({"name": "n" * 201}, [("/event/name", "too_long")]),
    ({"venue": "Town hall"}, [("/event/venue", "invalid_type")]),
    ({"venue": {"address": "a" * 501, "city": "X"}},
     [("/event/venue/address", "too_long"), ("/event/venue/city", "unknown_member"),
      ("/event/venue/name", "required")]),
    ({"venue": {"name": "v" * 201}}, [("/event/venue/name", "too_long")]),
    ({"performer": "X"}, [("/event/performer", "unknown_member")]),
    ({"category": "concert"}, [("/event/category", "invalid_value")]),
    ({"category": 3}, [("/event/category", "invalid_type")]),
    ({"venue": {"name": "Hall", "location": {"latitude": 91, "longitude": "0", "alt": 1}}},
     [("/event/venue/location/latitude", "out_of_range"),
      ("/event/venue/location/longitude", "invalid_type"),
      ("/event/venue/location/alt", "unknown_member")]),
    ({"venue": {"name": "Hall", "location": {"latitude": 1}}},
     [("/event/venue/location/longitude", "required")]),
    ({"venue": {"name": "Hall", "location": [1, 2]}},
     [("/event/venue/location", "invalid_type")]),
    ({"seatFields": {"number": "nope", "row": 1, "aisle": "seat"}},
     [("/event/seatFields/number", "unknown_field"), ("/event/seatFields/row", "invalid_type"),
      ("/event/seatFields/aisle", "unknown_member")]),
    ({"seatFields": "seat"}, [("/event/seatFields", "invalid_type")]),
])
def test_event_rules(change: dict, expected: list) -> None:
    event = full_event()["event"]
    event.update(change)
    assert event_found(event) == expected


def test_event_required_members() -> None:
    assert event_found({}) == [("/event/name", "required"), ("/event/venue", "required"),
                               ("/event/startsAt", "required")]


def test_event_must_be_an_object() -> None:
    assert event_found([]) == [("/event", "invalid_type")]


def test_event_range_not_checked_when_start_is_invalid() -> None:
    event = full_event()["event"]
    event["startsAt"] = "nope"
    event["endsAt"] = "2000-01-01T00:00:00Z"
    assert event_found(event) == [("/event/startsAt", "invalid_value")]


# -- expiresAt and locations ------------------------------------------------------------------


@pytest.mark.parametrize(("value", "code"), [
    ("2025-06-01", "invalid_value"), ("2025-06-01T25:00:00Z", "invalid_value"),
    (0, "invalid_type"),
])
def test_expires_at(value: object, code: str) -> None:
    d = minimal()
    d["expiresAt"] = value
    assert found(d) == [("/expiresAt", code)]


@pytest.mark.parametrize(("location", "expected"), [
    ({"latitude": 0, "longitude": 0}, []),
    ({"latitude": 90, "longitude": -180, "relevantText": ""}, []),
    ({"latitude": 90.0001, "longitude": 0}, [("/locations/0/latitude", "out_of_range")]),
    ({"latitude": 0, "longitude": -181}, [("/locations/0/longitude", "out_of_range")]),
    ({"latitude": 10**400, "longitude": 0}, [("/locations/0/latitude", "out_of_range")]),
    ({"latitude": float("nan"), "longitude": float("-inf")},
     [("/locations/0/latitude", "out_of_range"), ("/locations/0/longitude", "out_of_range")]),
    ({"latitude": True, "longitude": False},
     [("/locations/0/latitude", "invalid_type"), ("/locations/0/longitude", "invalid_type")]),
    ({"latitude": "52.3", "longitude": 4}, [("/locations/0/latitude", "invalid_type")]),
    ({"latitude": 1, "longitude": 1, "relevantText": "r" * 201},
     [("/locations/0/relevantText", "too_long")]),
    ({"latitude": 1, "longitude": 1, "altitude": 3}, [("/locations/0/altitude", "unknown_member")]),
    ({}, [("/locations/0/latitude", "required"), ("/locations/0/longitude", "required")]),
    ([1, 2], [("/locations/0", "invalid_type")]),
])
def test_location(location: object, expected: list) -> None:
    d = minimal()
    d["locations"] = [location]
    assert found(d) == expected


def test_at_most_ten_locations() -> None:
    d = minimal()
    d["locations"] = [{"latitude": 0, "longitude": 0}] * 10
    assert found(d) == []
    d["locations"] = [{"latitude": 0, "longitude": 0}] * 10 + [{"latitude": 99, "longitude": 0}]
    assert found(d) == [("/locations", "too_many")]  # the eleventh is not looked at


def test_locations_must_be_an_array() -> None:
    d = minimal()
    d["locations"] = {"latitude": 0, "longitude": 0}
    assert found(d) == [("/locations", "invalid_type")]


# -- unknown members everywhere, pointers, order ----------------------------------------------


@pytest.mark.parametrize("where", [
    (), ("colors",), ("platforms",), ("barcode",), ("event",), ("event", "venue"),
    ("locations", 0), ("config",), ("config", "fields", "header", 0),
])
def test_unknown_member_at_each_level(where: tuple) -> None:
    d = full_event()
    target = d
    for token in where:
        target = target[token]
    target["zzz"] = 1
    pointer = "".join(f"/{token}" for token in where) + "/zzz"
    assert found(d, "event_ticket") == [(pointer, "unknown_member")]


def test_pointer_tokens_are_escaped() -> None:
    d = minimal()
    d["a/b~c"] = 1
    d["images"] = {"x/y": "asset_1", "~": "asset_2"}
    d["config"]["fields"]["he/ad~er"] = []
    assert found(d) == [("/config/fields/he~1ad~0er", "unknown_member"),
                        ("/a~1b~0c", "unknown_member"),
                        ("/images/x~1y", "unknown_slot"), ("/images/~0", "unknown_slot")]


def test_every_problem_is_listed_in_document_order() -> None:
    d = {
        "locations": [{"latitude": 100, "longitude": 0}],
        "type": "event_ticket",
        "colors": {"foreground": "#000000", "background": "black"},
        "schemaVersion": 2,
        "config": {"fields": {"back": [shared("a")], "header": [shared("a", value="")]}},
        "platforms": {"apple": False, "google": False},
        "description": "",
    }
    assert found(d) == [
        ("/locations/0/latitude", "out_of_range"),
        ("/type", "type_mismatch"),
        ("/colors/background", "invalid_color"),
        ("/schemaVersion", "invalid_value"),
        ("/config/fields/header/0/key", "duplicate_key"),
        ("/config/fields/header/0/value", "too_short"),
        ("/platforms", "no_platform"),
        ("/description", "too_short"),
        ("/organizationName", "required"),
    ]


def test_issues_are_deterministic_and_well_formed() -> None:
    d = {"type": 3, "x": [], "config": {"fields": {"back": [{}, 1]}}}
    first = validate(d, "event_ticket")
    assert first == validate(copy.deepcopy(d), "event_ticket")
    for issue in first:
        assert set(issue) == {"path", "code", "message"}
        assert issue["message"] and issue["message"].endswith(".")


def test_messages_are_specific() -> None:
    d = minimal()
    d["config"]["fields"]["primary"] = [shared("a", value=[1])]
    [issue] = validate(d, "generic")
    assert issue["message"] == (
        "config.fields.primary[0].value must be a string or a number, not an array.")


# -- parse_datetime ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("2025-06-01T19:30:00Z", datetime(2025, 6, 1, 19, 30, tzinfo=UTC)),
    ("2025-06-01T19:30Z", datetime(2025, 6, 1, 19, 30, tzinfo=UTC)),
    ("2025-06-01T19:30:00.5+02:00",
     datetime(2025, 6, 1, 19, 30, 0, 500000, tzinfo=timezone(timedelta(hours=2)))),
    ("2025-06-01T19:30:00.123456789-05:30",
     datetime(2025, 6, 1, 19, 30, 0, 123456, tzinfo=timezone(-timedelta(hours=5, minutes=30)))),
    ("2024-02-29T00:00:00+00:00", datetime(2024, 2, 29, tzinfo=UTC)),
])
def test_parse_datetime_valid(text: str, expected: datetime) -> None:
    parsed = parse_datetime(text)
    assert parsed == expected
    assert parsed is not None and parsed.utcoffset() == expected.utcoffset()


@pytest.mark.parametrize("text", [
    "", "2025-06-01", "2025-06-01T19:30:00", "2025-06-01 19:30:00Z", "2025-06-01T19:30:00z",
    "2025-06-01T19:30:00+0200", "2025-06-01T19:30:00+24:00", "2025-06-01T19:30:00+02:60",
    "2025-02-29T00:00:00Z", "2025-06-01T24:00:00Z", "2025-06-01T19:60:00Z",
    "2025-06-01T19:30:60Z", "0000-01-01T00:00:00Z", "2025-6-1T19:30:00Z",
    "2025-06-01T19:30:00.Z", "2025-06-01T19:30:00Z ", "\u0662025-06-01T19:30:00Z",
])
def test_parse_datetime_invalid(text: str) -> None:
    assert parse_datetime(text) is None


def test_parse_datetime_non_string() -> None:
    assert parse_datetime(12345) is None  # type: ignore[arg-type]


def test_extreme_datetimes_compare() -> None:
    event = full_event()["event"]
    event["startsAt"] = "9999-12-31T23:59:59-23:59"
    event["endsAt"] = "0001-01-01T00:00:00+23:59"
    event["doorsOpenAt"] = "0001-01-01T00:00:00+23:59"
    assert event_found(event) == [("/event/endsAt", "invalid_range")]


# -- read helpers -----------------------------------------------------------------------------


def test_required_fields_in_group_then_array_order() -> None:
    d = with_fields(
        back=[per_pass("b1", required=True), per_pass("b2", required=True)],
        header=[per_pass("h1", required=True), per_pass("h2"), shared("h3")],
        secondary=[per_pass("s1", required=False), per_pass("s2", required=True)],
    )
    assert required_fields(d) == ["h1", "s2", "b1", "b2"]


def test_per_pass_fields() -> None:
    d = full_event()
    result = per_pass_fields(d)
    assert list(result) == ["seat", "holder"]
    assert result["seat"] == d["config"]["fields"]["header"][0]
    assert per_pass_fields(minimal()) == {}


def test_fields() -> None:
    d = full_event()
    assert [(group, f["key"]) for group, f in fields(d)] == [
        ("header", "seat"), ("primary", "title"), ("secondary", "price"),
        ("secondary", "day"), ("secondary", "doors"), ("secondary", "holder"),
        ("auxiliary", "count"), ("back", "terms")]


def test_image_refs() -> None:
    d = minimal()
    assert image_refs(d) == {}
    d["images"] = {"logo": "asset_1", "icon": "asset_2"}
    assert image_refs(d) == {"logo": "asset_1", "icon": "asset_2"}


@pytest.mark.parametrize(("barcode", "expected"), [
    (None, False), ({"format": "qr"}, False), ({"format": "qr", "perPass": False}, False),
    ({"format": "qr", "perPass": True}, True),
])
def test_takes_barcode_value(barcode: dict | None, expected: bool) -> None:
    d = minimal()
    if barcode is not None:
        d["barcode"] = barcode
    assert takes_barcode_value(d) is expected


def test_helpers_tolerate_malformed_definitions() -> None:
    for bad in ({}, {"config": []}, {"config": {"fields": {"header": "x", "back": [1, None]}}},
                {"images": [], "barcode": "qr"}):
        assert fields(bad) == []
        assert per_pass_fields(bad) == {}
        assert required_fields(bad) == []
        assert image_refs(bad) == {}
        assert takes_barcode_value(bad) is False


def test_constants() -> None:
    assert rules.MAX_VALUE_LENGTH == 500
    assert rules.GROUPS == ("header", "primary", "secondary", "auxiliary", "back")
    assert set(rules.GROUP_LIMITS) == set(rules.GROUPS)


# -- fuzz: validate accepts any JSON ----------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
_POINTER = re.compile(r"(/([^~/]|~[01])*)*")


def _container_paths(value: object, path: tuple = ()) -> list[tuple]:
    """Every path to a dict or list in `value` (the places a member can be replaced)."""
    out = [path]
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for token, child in items:
        if isinstance(child, dict | list):
            out.extend(_container_paths(child, (*path, token)))
    return out


_TEMPLATES = {"generic": minimal(), "event_ticket": full_event(),
              "loyalty": loyalty_definition("asset_logo"), "gift_card": gift_card_definition(),
              "coupon": coupon_definition()}
_PLACES = {kind: _container_paths(d) for kind, d in _TEMPLATES.items()}
_MEMBER_NAMES = sorted({"schemaVersion", "type", "event", "value", "perPass", "required",
                        "binding", "format", "latitude", "startsAt", "endsAt", "key", "fields",
                        "header", "primary", "back", "logo", "apple", "background",
                        "loyalty", "giftCard", "offer", "tiers", "currency", "title"})


def _assert_well_formed(issues: object) -> None:
    assert isinstance(issues, list)
    for issue in issues:
        assert isinstance(issue, dict)
        assert set(issue) == {"path", "code", "message"}
        assert all(isinstance(issue[k], str) for k in issue)
        assert issue["code"] and issue["message"]
        assert _POINTER.fullmatch(issue["path"]), issue["path"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=_json, template_type=st.sampled_from(rules.TEMPLATE_TYPES))
def test_fuzz_root(value: object, template_type: str) -> None:
    _assert_well_formed(validate(value, template_type))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), kind=st.sampled_from(rules.TEMPLATE_TYPES))
def test_fuzz_spliced_into_valid_definition(data: st.DataObject, kind: str) -> None:
    d = copy.deepcopy(_TEMPLATES[kind])
    for _ in range(data.draw(st.integers(1, 3))):
        place = data.draw(st.sampled_from(_PLACES[kind]))
        target: object = d
        for token in place:  # an earlier splice may have replaced part of this path
            try:
                target = target[token]  # type: ignore[index]
            except (KeyError, IndexError, TypeError):
                target = None
                break
        value = data.draw(_json)
        if isinstance(target, dict):
            name = data.draw(st.sampled_from([*target, *_MEMBER_NAMES]) | st.text(max_size=5))
            target[name] = value
        elif isinstance(target, list) and target:
            target[data.draw(st.integers(0, len(target) - 1))] = value
    issues = validate(d, kind)
    _assert_well_formed(issues)
    assert issues == validate(copy.deepcopy(d), kind)
