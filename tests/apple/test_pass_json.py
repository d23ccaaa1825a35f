"""pass.json rendering, a pure function: values, dates, limits, change messages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.apple import validate
from webapp.wallets.apple import pass_json

BASE: dict[str, Any] = {
    "schemaVersion": 1, "type": "generic", "description": "Card", "organizationName": "Org",
    "colors": {"background": "#0a0B0c", "foreground": "#FFFFFF"},
    "platforms": {"apple": True, "google": False},
    "config": {"fields": {}},
}


def render(fields: dict[str, list[dict[str, Any]]], values: dict[str, Any] | None = None,
           notify: frozenset[str] = frozenset(), **definition: Any) -> dict[str, Any]:
    doc = dict(BASE, config={"fields": fields}, **definition)
    content = pass_json.PassContent(
        serial_number="pass_1", pass_type_identifier="pass.x", team_identifier="TEAM",
        field_values=values or {}, barcode_message="M" if "barcode" in definition else None,
        web_service_url="https://x.test/wallet/apple", authentication_token="t" * 43,
        notify_keys=notify)
    out = pass_json.render(doc, content)
    assert validate.pass_json_problems(out) == []
    return out


def per_pass(key: str, fmt: str = "text", **extra: Any) -> dict[str, Any]:
    return {"key": key, "label": key.title(), "binding": "perPass", "format": fmt, **extra}


@pytest.mark.parametrize(("value", "expected"), [("#0a0B0c", "rgb(10, 11, 12)"),
                                                 ("#ffffff", "rgb(255, 255, 255)"),
                                                 ("red", None), ("#fff", None), (None, None)])
def test_colours(value: Any, expected: str | None) -> None:
    assert pass_json.css_rgb(value) == expected


@pytest.mark.parametrize(("fmt", "raw", "expected"), [
    ("number", "12", {"value": 12, "numberStyle": "PKNumberStyleDecimal"}),
    ("number", 12.5, {"value": 12.5, "numberStyle": "PKNumberStyleDecimal"}),
    ("number", "1e3", {"value": 1000, "numberStyle": "PKNumberStyleDecimal"}),
    ("text", 7, {"value": "7"}),
    ("date", "2027-06-01", {"value": "2027-06-01T00:00:00Z", "dateStyle": "PKDateStyleMedium",
                            "timeStyle": "PKDateStyleNone", "ignoresTimeZone": True}),
    ("dateTime", "2027-06-01T19:30:00.250+02:00", {
        "value": "2027-06-01T19:30:00+02:00", "dateStyle": "PKDateStyleMedium",
        "timeStyle": "PKDateStyleShort"}),
    ("dateTime", "2027-06-01T19:30:00Z", {
        "value": "2027-06-01T19:30:00Z", "dateStyle": "PKDateStyleMedium",
        "timeStyle": "PKDateStyleShort"}),
])
def test_values_by_format(fmt: str, raw: Any, expected: dict[str, Any]) -> None:
    out = render({"primary": [per_pass("v", fmt)]}, {"v": raw})
    assert out["generic"]["primaryFields"] == [{"key": "v", "label": "V", **expected}]


def test_change_messages_only_on_notified_fields() -> None:
    fields = {"primary": [per_pass("a")],
              "secondary": [per_pass("b", changeMessage="B is now %@"),
                            {"key": "c", "label": "50% off", "binding": "perPass"}]}
    out = render(fields, {"a": "1", "b": "2", "c": "3"}, frozenset({"b", "c"}))
    groups = out["generic"]
    assert "changeMessage" not in groups["primaryFields"][0]
    assert [f["changeMessage"] for f in groups["secondaryFields"]] == ["B is now %@",
                                                                       "50%% off: %@"]


def test_voided_pass_has_no_change_message_nor_web_service() -> None:
    doc = dict(BASE, config={"fields": {"primary": [per_pass("a")]}})
    out = pass_json.render(doc, pass_json.PassContent(
        "pass_1", "pass.x", "TEAM", {"a": "1"}, web_service_url="https://x",
        authentication_token="t" * 40, voided=True, notify_keys=frozenset({"a"})))
    assert out["voided"] is True
    assert "changeMessage" not in out["generic"]["primaryFields"][0]
    assert "webServiceURL" not in out and "authenticationToken" not in out


def test_square_barcode_moves_extra_fields_to_the_back() -> None:
    secondary = [per_pass(f"s{i}") for i in range(3)]
    auxiliary = [per_pass(f"a{i}") for i in range(3)]
    values = {f["key"]: "x" for f in secondary + auxiliary}
    out = render({"secondary": secondary, "auxiliary": auxiliary}, values,
                 barcode={"format": "qr"})
    groups = out["generic"]
    assert [f["key"] for f in groups["auxiliaryFields"]] == ["a0"]
    assert [f["key"] for f in groups["backFields"]] == ["a1", "a2"]
    wide = render({"secondary": secondary, "auxiliary": auxiliary}, values,
                  barcode={"format": "pdf417"})
    assert len(wide["generic"]["auxiliaryFields"]) == 3


def test_back_fields_get_data_detectors_and_empty_values_are_left_out() -> None:
    out = render({"back": [per_pass("url"), per_pass("empty")]}, {"url": "https://x.test",
                                                                  "empty": ""})
    assert out["generic"]["backFields"] == [{
        "key": "url", "label": "Url", "value": "https://x.test",
        "dataDetectorTypes": ["PKDataDetectorTypeLink", "PKDataDetectorTypePhoneNumber"]}]


def test_code128_barcode_and_dates() -> None:
    out = render({}, barcode={"format": "code128"}, expiresAt="2030-01-01T00:00:00+01:00")
    assert out["barcodes"][0]["format"] == "PKBarcodeFormatCode128"
    assert out["expirationDate"] == "2030-01-01T00:00:00+01:00"
    assert "eventTicket" not in out and "relevantDate" not in out


EVENT = {"name": "Gig", "venue": {"name": "Hall", "location": {"latitude": 52.5,
                                                              "longitude": 13.4}},
         "startsAt": "2027-06-01T20:00:00+02:00", "doorsOpenAt": "2027-06-01T19:00:00+02:00"}
SEATING = {"primary": [per_pass("seatNo")], "secondary": [per_pass("rowNo"),
                                                           per_pass("block"), per_pass("door")]}
POSTER_IMAGES = {"background": "asset_bg", "logo": "asset_logo"}


def event_ticket(images: dict[str, str] | None = None, **event: Any) -> dict[str, Any]:
    return render(SEATING, {"seatNo": "12", "rowNo": "F", "block": "B2", "door": "3"},
                  type="event_ticket", event={**EVENT, **event}, images=images or {})


def test_event_ticket_semantic_tags_from_the_definition_and_the_pass() -> None:
    out = event_ticket(POSTER_IMAGES, category="conference", seatFields={
        "number": "seatNo", "row": "rowNo", "section": "block", "gate": "door"})
    assert out["semantics"] == {
        "eventType": "PKEventTypeConference", "eventName": "Gig", "venueName": "Hall",
        "eventStartDate": "2027-06-01T20:00:00+02:00",
        "venueLocation": {"latitude": 52.5, "longitude": 13.4},
        "venueDoorsOpenDate": "2027-06-01T19:00:00+02:00",
        "seats": [{"seatSection": "B2", "seatRow": "F", "seatNumber": "12"}],
        "venueEntranceGate": "3"}
    assert out["preferredStyleSchemes"] == ["posterEventTicket", "eventTicket"]
    # Older iOS keeps the classic layout: the style key and its fields are all still there.
    assert [f["key"] for f in out["eventTicket"]["primaryFields"]] == ["seatNo"]
    assert out["relevantDate"] == "2027-06-01T20:00:00+02:00"


def test_no_poster_style_without_its_images() -> None:
    for images in ({}, {"logo": "asset_logo"}, {"background": "asset_bg"},
                   {**POSTER_IMAGES, "strip": "asset_strip"}):
        out = event_ticket(images)
        assert "preferredStyleSchemes" not in out, images
        assert out["semantics"]["eventType"] == "PKEventTypeGeneric"


@pytest.mark.parametrize("category", ["sports", "livePerformance"])
def test_no_poster_style_for_events_whose_tags_definitions_lack(category: str) -> None:
    out = event_ticket(POSTER_IMAGES, category=category)
    assert "preferredStyleSchemes" not in out
    assert out["semantics"]["eventType"] == pass_json.event_type(category)


def test_seats_default_to_fields_keyed_like_google_seats() -> None:
    fields = {"primary": [per_pass("seat")], "secondary": [per_pass("row"), per_pass("gate")]}
    out = render(fields, {"seat": "7", "row": "C"}, type="event_ticket", event=EVENT)
    assert out["semantics"]["seats"] == [{"seatRow": "C", "seatNumber": "7"}]
    assert "venueEntranceGate" not in out["semantics"]  # no value for the gate field


START = "2027-06-01T20:00:00+02:00"


def test_an_events_relevant_dates_are_its_window() -> None:
    out = event_ticket(endsAt="2027-06-01T23:00:00+02:00")
    # iOS 18 and iOS 26 read the same interval keys.
    assert out["relevantDates"] == [{"startDate": START, "endDate": "2027-06-01T23:00:00+02:00"}]
    assert out["semantics"]["eventEndDate"] == "2027-06-01T23:00:00+02:00"
    assert out["relevantDate"] == START  # iOS before 18


def test_an_event_without_an_end_is_relevant_at_its_start_on_every_ios() -> None:
    # Apple requires endDate with startDate: the start is one moment, which iOS 26 reads as
    # `date` and iOS 18 to 25 as `relevantDate`.
    out = event_ticket()
    assert out["relevantDates"] == [{"date": START, "relevantDate": START}]
    assert "eventEndDate" not in out["semantics"]


@pytest.mark.parametrize("kind", ["generic", "event_ticket"])
def test_a_passes_own_relevant_date_is_read_by_every_ios(kind: str) -> None:
    definition = dict(BASE, type=kind, event={**EVENT, "endsAt": "2027-06-01T23:00:00+02:00"})
    if kind == "generic":
        del definition["event"]
    out = pass_json.render(definition, pass_json.PassContent(
        "pass_1", "pass.x", "TEAM", {}, relevant_date="2027-06-30T18:00:00.250+02:00"))
    assert validate.pass_json_problems(out) == []
    moment = "2027-06-30T18:00:00+02:00"  # seconds precision
    assert out["relevantDate"] == moment  # iOS before 18
    # It replaces an event's window; iOS 26 reads `date`, iOS 18 to 25 `relevantDate`.
    assert out["relevantDates"] == [{"date": moment, "relevantDate": moment}]


@pytest.mark.parametrize("entry", [
    {"date": START}, {"relevantDate": START}, {"startDate": START}, {"endDate": START},
    {"date": START, "relevantDate": "2027-06-01T21:00:00+02:00"},
    {"startDate": START, "endDate": "soon"}, {}, START])
def test_validator_refuses_relevant_dates_an_ios_cannot_read(entry: Any) -> None:
    assert validate.relevant_dates_problems(entry) != []


def test_generic_passes_carry_no_event_tags() -> None:
    out = render({}, images=POSTER_IMAGES)
    assert "semantics" not in out and "preferredStyleSchemes" not in out


def test_validator_refuses_unknown_and_mistyped_keys() -> None:
    doc = event_ticket(POSTER_IMAGES)
    assert validate.pass_json_problems({**doc, "posterStyle": True}) == [
        "pass.json has unknown key posterStyle"]
    semantics = {**doc["semantics"], "venueSeat": "1", "seats": [{"seat": "1"}],
                 "venueLocation": {"latitude": 1}, "eventType": "PKEventTypeConcert",
                 "venueDoorsOpenDate": "tomorrow"}
    assert sorted(validate.semantics_problems(semantics)) == [
        "semantics has unknown key venueSeat",
        "semantics.eventType is not of type eventType",
        "semantics.seats is not of type seats",
        "semantics.venueDoorsOpenDate is not of type date",
        "semantics.venueLocation is not of type location"]
    assert validate.pass_json_problems({**doc, "preferredStyleSchemes": ["poster"]}) == [
        "preferredStyleSchemes is not a list of ('posterEventTicket', 'eventTicket')"]
