"""The pure mapping from a template revision and a pass to Google class and object JSON."""

from __future__ import annotations

import copy
from typing import Any

from tests.api.factories import definition
from webapp.wallets.google import objects

CLS = "3388000000000000001.tmpl_1_r2"
OBJ = "3388000000000000001.pass_1"


def url(asset_id: str) -> str:
    return f"https://cdn.test/assets/{asset_id}"


def data(**changes: Any) -> objects.PassData:
    values = {"id": "pass_1", "status": "active", "field_values": {"member": "Ada", "level": 3},
              "title": "Membership", "holder_name": "Ada L.", "barcode_message": "ABC"}
    values.update(changes)
    return objects.PassData(**values)


def text(value: dict[str, Any]) -> str:
    return value["defaultValue"]["value"]


def test_ids_one_class_per_revision_and_issuer_and_sanitised() -> None:
    assert objects.class_id("33", "tmpl_ab", 2) == "33.tmpl_ab_r2"
    assert objects.object_id("33", "pass_x y/z") == "33.pass_x_y_z"
    assert objects.kinds("generic") == ("genericClass", "genericObject")
    assert objects.kinds("event_ticket") == ("eventTicketClass", "eventTicketObject")


def test_generic_object_carries_the_design() -> None:
    d = definition(images={"logo": "asset_logo", "strip": "asset_strip"},
                   barcode={"format": "pdf417"})
    d["config"]["fields"]["back"] = [{"key": "terms", "label": "Terms", "binding": "shared",
                                      "value": "No refunds"}]
    body = objects.build_object("generic", d, data(), CLS, OBJ, asset_url=url)
    assert body["id"] == OBJ and body["classId"] == CLS and body["state"] == "ACTIVE"
    assert text(body["cardTitle"]) == "Acme Gym"
    assert text(body["header"]) == "Ada" and text(body["subheader"]) == "Member"
    assert body["hexBackgroundColor"] == "#112233"
    assert body["logo"]["sourceUri"]["uri"] == "https://cdn.test/assets/asset_logo"
    assert body["heroImage"]["sourceUri"]["uri"] == "https://cdn.test/assets/asset_strip"
    assert body["barcode"] == {"type": "PDF_417", "value": "ABC"}
    assert body["textModulesData"] == [
        {"id": "level", "header": "Level", "body": "3"},
        {"id": "club", "header": "Club", "body": "Downtown"},
        {"id": "terms", "header": "Terms", "body": "No refunds"}]
    assert "notifyPreference" not in body


def test_generic_class_has_card_rows_and_callback_only() -> None:
    d = definition()
    body = objects.build_class("generic", d, CLS, asset_url=url,
                               callback_url="https://x.test/wallet/google/callbacks")
    assert set(body) == {"id", "classTemplateInfo", "callbackOptions"}
    rows = body["classTemplateInfo"]["cardTemplateOverride"]["cardRowTemplateInfos"]
    assert rows == [{"twoItems": {
        "startItem": {"firstValue": {"fields": [
            {"fieldPath": "object.textModulesData['level']"}]}},
        "endItem": {"firstValue": {"fields": [
            {"fieldPath": "object.textModulesData['club']"}]}}}}]
    assert objects.build_class("generic", d, CLS, asset_url=url, callback_url=None).get(
        "callbackOptions") is None


def test_voided_pass_is_inactive_and_empty_values_are_left_out() -> None:
    body = objects.build_object("generic", definition(), data(
        status="voided", field_values={"member": "Ada"}), CLS, OBJ, asset_url=url)
    assert body["state"] == "INACTIVE"
    assert [m["id"] for m in body["textModulesData"]] == ["club"]
    assert "barcode" not in body  # the definition has no barcode


def test_generic_without_primary_uses_the_template_name() -> None:
    d = definition()
    d["config"]["fields"]["primary"] = []
    body = objects.build_object("generic", d, data(), CLS, OBJ, asset_url=url)
    assert text(body["header"]) == "Membership" and "subheader" not in body


def test_event_ticket_class_and_object() -> None:
    d = copy.deepcopy(definition("event"))
    d["images"] = {"logo": "asset_logo", "hero": "asset_hero"}
    d["event"].update(endsAt="2027-01-01T23:00:00Z")
    d["config"]["fields"]["secondary"] = [{"key": "gate", "label": "Gate", "binding": "perPass"},
                                          {"key": "tier", "label": "Tier", "binding": "perPass"}]
    cls = objects.build_class("event_ticket", d, CLS, asset_url=url, callback_url=None)
    assert cls["issuerName"] == "Acme Live" and text(cls["eventName"]) == "The Show"
    assert cls["reviewStatus"] == "UNDER_REVIEW" and cls["eventId"] == "tmpl_1_r2"
    assert text(cls["venue"]["name"]) == "Hall" and text(cls["venue"]["address"]) == "1 Main St"
    assert cls["dateTime"] == {"start": "2027-01-01T20:00:00Z", "end": "2027-01-01T23:00:00Z"}
    assert cls["logo"]["sourceUri"]["uri"].endswith("asset_logo")
    obj = objects.build_object("event_ticket", d, data(
        field_values={"seat": "12A", "gate": "B", "tier": "VIP"}, barcode_message="X1"),
        CLS, OBJ, asset_url=url)
    assert obj["state"] == "ACTIVE" and obj["ticketHolderName"] == "Ada L."
    assert obj["seatInfo"] == {"seat": objects.localized("12A"), "gate": objects.localized("B")}
    assert obj["textModulesData"] == [{"id": "tier", "header": "Tier", "body": "VIP"}]
    assert obj["barcode"] == {"type": "QR_CODE", "value": "X1"}
    assert "logo" not in obj and "cardTitle" not in obj


def test_message_is_bounded_and_ids_have_no_dots() -> None:
    m = objects.message("pupd.1", "H" * 50, "B" * 600, "TEXT_AND_NOTIFY")
    assert m == {"id": "pupd_1", "header": "H" * 35, "body": "B" * 500,
                 "messageType": "TEXT_AND_NOTIFY"}
    assert objects.module_id("a.b c") == "a_b_c"
