"""What changed between two template definitions, in words."""

from __future__ import annotations

import copy
from typing import Any

from tests.api.factories import EVENT, GENERIC
from webapp.domain.definition_diff import Change, diff


def _rows(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(c.section, c.item, c.what, c.kind, c.before, c.after) for c in diff(before, after)]


def test_the_same_design_has_no_changes() -> None:
    assert diff(GENERIC, copy.deepcopy(GENERIC)) == []
    assert diff(EVENT, EVENT) == []


def test_text_colours_wallets_and_images() -> None:
    after = copy.deepcopy(GENERIC)
    after.update(description="Gym card", logoText="ACME")
    after["colors"] = {"background": "#7a1f5c", "foreground": "#ffffff", "label": "#eeeeee"}
    after["platforms"] = {"apple": True, "google": False}
    after["images"] = {"logo": "asset_new"}
    before = copy.deepcopy(GENERIC)
    before["images"] = {"logo": "asset_old", "icon": "asset_icon"}
    assert diff(before, after) == [
        Change("Text", "Description", "", "changed", "Gym membership", "Gym card"),
        Change("Text", "Logo text", "", "added", None, "ACME"),
        Change("Colours", "Background", "", "changed", "#112233", "#7a1f5c", "colour"),
        Change("Colours", "Labels", "", "added", None, "#eeeeee", "colour"),
        Change("Wallets", "Google Wallet", "", "changed", "on", "off"),
        Change("Images", "Icon", "", "removed", "asset_icon", None, "image"),
        Change("Images", "Logo", "", "changed", "asset_old", "asset_new", "image"),
    ]


def test_fields_are_matched_by_key_across_rows() -> None:
    after = copy.deepcopy(GENERIC)
    fields = after["config"]["fields"]
    level = fields["secondary"].pop(0)
    fields["header"] = [level]  # moved to another row
    fields["primary"][0]["label"] = "Guest"  # relabelled
    fields["secondary"][0]["value"] = "Uptown"  # a shared value changed
    fields["secondary"].append({"key": "gate", "label": "Gate", "binding": "shared",
                                "value": "North", "required": False})
    assert _rows(GENERIC, after) == [
        ("Fields", "Level (level)", "Row", "changed", "Secondary row", "Header row"),
        ("Fields", "Guest (member)", "Label", "changed", "Member", "Guest"),
        ("Fields", "Club (club)", "Value", "changed", "Downtown", "Uptown"),
        ("Fields", "Gate (gate)", "", "added", None,
         "Secondary row, position 2; the same on every pass; value North"),
    ]


def test_removed_fields_binding_and_order() -> None:
    before = copy.deepcopy(GENERIC)
    before["config"]["fields"]["back"] = [
        {"key": "a", "label": "A", "binding": "shared", "value": "1"},
        {"key": "b", "label": "B", "binding": "shared", "value": "2"},
        {"key": "terms", "label": "Terms", "binding": "shared", "value": "No refunds"}]
    after = copy.deepcopy(before)
    back = after["config"]["fields"]["back"]
    back.reverse()
    back.remove(back[0])  # terms goes
    after["config"]["fields"]["primary"][0].update(binding="shared", value="Everyone",
                                                   required=False)
    assert _rows(before, after) == [
        ("Fields", "Member (member)", "Filled in", "changed", "per pass",
         "the same on every pass"),
        ("Fields", "Member (member)", "Value", "added", None, "Everyone"),
        ("Fields", "Member (member)", "Required", "removed", "yes", None),
        ("Fields", "Terms (terms)", "", "removed",
         "Back of the pass, position 3; the same on every pass; value No refunds", None),
        ("Fields", "Back of the pass", "Order", "changed", "a, b", "b, a"),
    ]


def test_barcode_event_and_locations() -> None:
    after = copy.deepcopy(EVENT)
    after["barcode"] = {"format": "pdf417", "perPass": True, "altText": "Show at the door"}
    after["event"]["venue"]["name"] = "Arena"
    after["event"]["doorsOpenAt"] = "2027-01-01T19:00:00Z"
    after["locations"] = [{"latitude": 52.5, "longitude": 13.4, "relevantText": "Near"}]
    assert _rows(EVENT, after) == [
        ("Barcode", "Format", "", "changed", "QR", "PDF417"),
        ("Barcode", "Text under it", "", "added", None, "Show at the door"),
        ("Event", "Venue", "", "changed", "Hall", "Arena"),
        ("Event", "Doors open", "", "added", None, "2027-01-01T19:00:00Z"),
        ("Locations", "Location 1", "", "added", None, "52.5, 13.4: Near"),
    ]


def test_a_barcode_added_or_removed_is_one_change() -> None:
    without = copy.deepcopy(GENERIC)
    with_code = copy.deepcopy(GENERIC)
    with_code["barcode"] = {"format": "qr", "value": "{{shortId}}"}
    assert _rows(without, with_code) == [
        ("Barcode", "Barcode", "", "added", None, "QR: {{shortId}}")]
    assert _rows(with_code, without) == [
        ("Barcode", "Barcode", "", "removed", "QR: {{shortId}}", None)]


def test_format_text_is_the_default_and_unknown_members_are_json() -> None:
    after = copy.deepcopy(GENERIC)
    after["config"]["fields"]["secondary"][0]["format"] = "text"
    assert diff(GENERIC, after) == []
    after["schemaVersion"] = 2
    after["extra"] = {"b": 1, "a": [True]}
    assert _rows(GENERIC, after) == [
        ("Other", "extra", "", "added", None, '{"a": [true], "b": 1}'),
        ("Other", "schemaVersion", "", "changed", "1", "2"),
    ]


def test_anything_else_never_raises() -> None:
    for before, after in [(None, GENERIC), (GENERIC, []), ({"config": 3}, {"config": {
            "fields": {"back": [None, {"key": 5}]}}}), ({"locations": [1]}, {"barcode": 7})]:
        assert isinstance(diff(before, after), list)


def test_event_kind_venue_location_and_seat_fields() -> None:
    after = copy.deepcopy(EVENT)
    after["event"].update(category="movie", seatFields={"number": "seat"})
    after["event"]["venue"]["location"] = {"latitude": 52.5, "longitude": 13.4}
    assert _rows(EVENT, after) == [
        ("Event", "Kind of event", "", "added", None, "movie"),
        ("Event", "Venue location", "", "added", None,
         '{"latitude": 52.5, "longitude": 13.4}'),
        ("Event", "Seat fields", "", "added", None, '{"number": "seat"}'),
    ]
