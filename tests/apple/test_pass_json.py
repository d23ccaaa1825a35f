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
