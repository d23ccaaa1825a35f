"""Per-pass dates (`expiresAt`, `relevantDate` on POST/PATCH /v1/passes) and per-pass images
(PUT/DELETE /v1/passes/{id}/images/{slot}) through the API: exact answers for good and bad
values, the update each change records, the pass object showing them."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.api.factories import template_body
from tests.conftest import Api, assert_error

WHEN = "2027-06-30T23:59:00+02:00"
LATER = "2028-01-01T00:00:00Z"
DATE_HINT = "a date and time with an offset (RFC 3339), like 2027-06-01T19:30:00+02:00"


def make_template(api: Api, kind: str = "generic", **changes: Any) -> dict[str, Any]:
    response = api.post("/v1/templates", template_body(kind, **changes))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def issue(api: Api, template: dict[str, Any], **body: Any) -> Any:
    values = {"member": "Ada"} if template["type"] == "generic" else {"seat": "A1"}
    payload: dict[str, Any] = {"templateId": template["id"], "fieldValues": values}
    if template["type"] == "event_ticket":
        payload["barcodeValue"] = "T-1"
    return api.post("/v1/passes", {**payload, **body})


def upload(api: Api, png: Any, slot: str) -> str:
    response = api.post("/v1/assets", {"slot": slot, "data": png(120, 120)})
    assert response.status_code == 201, response.get_json()
    return str(response.get_json()["id"])


def put_image(api: Api, pass_id: str, slot: str, body: Any) -> Any:
    return api.request("PUT", f"/v1/passes/{pass_id}/images/{slot}", body,
                       headers={"Idempotency-Key": str(uuid.uuid4())})


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    return make_template(api)


@pytest.fixture
def item(api: Api, template: dict[str, Any]) -> dict[str, Any]:
    response = issue(api, template)
    assert response.status_code == 201
    return response.get_json()


# ---- dates -------------------------------------------------------------------------------

def test_a_new_pass_has_no_dates_or_images_of_its_own(item: dict) -> None:
    assert (item["expiresAt"], item["relevantDate"], item["images"]) == (None, None, {})


def test_issue_with_dates_shows_them_as_given(api: Api, template: dict) -> None:
    response = issue(api, template, expiresAt=WHEN, relevantDate=LATER)
    assert response.status_code == 201
    created = response.get_json()
    assert (created["expiresAt"], created["relevantDate"]) == (WHEN, LATER)
    shown = api.get(f"/v1/passes/{created['id']}").get_json()
    assert (shown["expiresAt"], shown["relevantDate"]) == (WHEN, LATER)
    listed = api.get("/v1/passes").get_json()["data"][0]
    assert (listed["expiresAt"], listed["relevantDate"], listed["images"]) == (WHEN, LATER, {})


@pytest.mark.parametrize("value", [
    "2027-06-30", "2027-06-30T23:59:00", "30/06/2027", "2027-02-30T10:00:00Z",
    "2027-06-30T25:00:00Z", "2027-06-30T23:59:00+24:00", "tomorrow", "",
    "2027-06-30T23:59:00.123456789+02:00" + "0" * 20,
])
@pytest.mark.parametrize("member", ["expiresAt", "relevantDate"])
def test_issue_refuses_a_bad_date(api: Api, template: dict, member: str, value: str) -> None:
    error = assert_error(issue(api, template, **{member: value}), 400,
                         "invalid_request_error", "parameter_invalid", member)
    assert error["message"] == f"{member} must be {DATE_HINT}."
    assert api.get("/v1/passes").get_json()["data"] == []


@pytest.mark.parametrize("value", [20270630, True, ["2027-06-30T23:59:00Z"],
                                   {"date": WHEN}, None])
def test_issue_refuses_a_date_of_another_type(api: Api, template: dict, value: Any) -> None:
    error = assert_error(issue(api, template, expiresAt=value), 400, "invalid_request_error",
                         "parameter_invalid", "expiresAt")
    expected = "Field may not be null." if value is None else "Not a valid string."
    assert error["message"] == f"expiresAt: {expected}"


def test_patch_sets_changes_and_clears_a_date(api: Api, item: dict) -> None:
    path = f"/v1/passes/{item['id']}"
    first = api.patch(path, {"expiresAt": WHEN})
    assert first.status_code == 200
    body = first.get_json()
    assert body["pass"]["expiresAt"] == WHEN and body["pass"]["relevantDate"] is None
    update = body["update"]
    assert update["walletChanged"] is True
    assert update["changes"]["fields"] == [
        {"key": "pass.expiresAt", "label": "Expires", "from": None, "to": WHEN}]
    assert update["delivery"]["apple"]["status"] in ("pending", "no_devices", "failed", "sent")
    second = api.patch(path, {"expiresAt": LATER, "relevantDate": WHEN}).get_json()
    assert second["update"]["changes"]["fields"] == [
        {"key": "pass.expiresAt", "label": "Expires", "from": WHEN, "to": LATER},
        {"key": "pass.relevantDate", "label": "Relevant date", "from": None, "to": WHEN}]
    cleared = api.patch(path, {"expiresAt": None}).get_json()
    assert cleared["pass"]["expiresAt"] is None and cleared["pass"]["relevantDate"] == WHEN
    assert cleared["update"]["changes"]["fields"] == [
        {"key": "pass.expiresAt", "label": "Expires", "from": LATER, "to": None}]
    assert api.get(path).get_json()["expiresAt"] is None


def test_patch_with_values_and_dates_records_both(api: Api, item: dict) -> None:
    response = api.patch(f"/v1/passes/{item['id']}",
                         {"fieldValues": {"level": "Gold"}, "relevantDate": WHEN})
    assert response.status_code == 200
    assert [c["key"] for c in response.get_json()["update"]["changes"]["fields"]] == [
        "level", "pass.relevantDate"]


def test_patch_with_the_same_date_changes_nothing(api: Api, item: dict) -> None:
    path = f"/v1/passes/{item['id']}"
    assert api.patch(path, {"relevantDate": WHEN}).status_code == 200
    assert_error(api.patch(path, {"relevantDate": WHEN}), 400, "invalid_request_error",
                 "nothing_changed", "relevantDate")
    assert_error(api.patch(path, {"expiresAt": None}), 400, "invalid_request_error",
                 "nothing_changed", "expiresAt")


@pytest.mark.parametrize(("value", "message"), [
    ("2027-06-30", f"expiresAt must be {DATE_HINT}."),
    ("", f"expiresAt must be {DATE_HINT}."),
    (12, "expiresAt: Not a valid string."),
    (False, "expiresAt: Not a valid string."),
])
def test_patch_refuses_a_bad_date(api: Api, item: dict, value: Any, message: str) -> None:
    error = assert_error(api.patch(f"/v1/passes/{item['id']}", {"expiresAt": value}), 400,
                         "invalid_request_error", "parameter_invalid", "expiresAt")
    assert error["message"] == message
    assert api.get(f"/v1/passes/{item['id']}/updates").get_json()["data"] == []


def test_a_bad_date_is_not_saved_with_good_values(api: Api, item: dict) -> None:
    assert_error(api.patch(f"/v1/passes/{item['id']}",
                           {"fieldValues": {"level": "Gold"}, "relevantDate": "soon"}),
                 400, "invalid_request_error", "parameter_invalid", "relevantDate")
    assert api.get(f"/v1/passes/{item['id']}").get_json()["fieldValues"] == {"member": "Ada"}


def test_a_voided_pass_takes_no_dates(api: Api, item: dict) -> None:
    assert api.delete(f"/v1/passes/{item['id']}").status_code == 200
    assert_error(api.patch(f"/v1/passes/{item['id']}", {"expiresAt": WHEN}), 400,
                 "invalid_request_error", "pass_voided")


def test_another_tenants_pass_is_404(api: Api, other_api: Api, item: dict) -> None:
    assert_error(other_api.patch(f"/v1/passes/{item['id']}", {"expiresAt": WHEN}), 404,
                 "not_found_error", "resource_missing", "id")


# ---- images ------------------------------------------------------------------------------

def test_put_and_delete_a_thumbnail(api: Api, png: Any, item: dict) -> None:
    asset = upload(api, png, "thumbnail")
    response = put_image(api, item["id"], "thumbnail", {"assetId": asset})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["pass"]["images"] == {"thumbnail": asset}
    assert body["pass"]["preview"]["images"]["thumbnail"] == asset
    update = body["update"]
    assert (update["walletChanged"], update["notificationMode"]) == (True, "silent")
    assert update["changes"]["fields"] == [
        {"key": "image.thumbnail", "label": "Thumbnail image", "from": None, "to": asset}]
    assert api.get(f"/v1/passes/{item['id']}").get_json()["images"] == {"thumbnail": asset}
    other = upload(api, png, "thumbnail")
    replaced = put_image(api, item["id"], "thumbnail", {"assetId": other}).get_json()
    assert replaced["update"]["changes"]["fields"][0]["from"] == asset
    removed = api.delete(f"/v1/passes/{item['id']}/images/thumbnail")
    assert removed.status_code == 200
    assert removed.get_json()["pass"]["images"] == {}
    assert removed.get_json()["update"]["changes"]["fields"] == [
        {"key": "image.thumbnail", "label": "Thumbnail image", "from": other, "to": None}]
    assert_error(api.delete(f"/v1/passes/{item['id']}/images/thumbnail"), 404,
                 "not_found_error", "resource_missing", "slot")


def test_event_tickets_take_a_strip_and_a_thumbnail(api: Api, png: Any) -> None:
    template = make_template(api, "event")
    pass_id = issue(api, template).get_json()["id"]
    strip, thumb = upload(api, png, "strip"), upload(api, png, "thumbnail")
    assert put_image(api, pass_id, "strip", {"assetId": strip}).status_code == 200
    shown = put_image(api, pass_id, "thumbnail", {"assetId": thumb}).get_json()["pass"]
    assert shown["images"] == {"strip": strip, "thumbnail": thumb}


@pytest.mark.parametrize(("kind", "slot", "code", "message"), [
    ("generic", "strip", "slot_not_per_pass",
     "A pass cannot have its own strip: its template's is used. A pass of this template "
     "(generic) can set thumbnail."),
    ("generic", "logo", "slot_not_per_pass",
     "A pass cannot have its own logo: its template's is used. A pass of this template "
     "(generic) can set thumbnail."),
    ("event", "icon", "slot_not_per_pass",
     "A pass cannot have its own icon: its template's is used. A pass of this template "
     "(event_ticket) can set strip and thumbnail."),
    ("generic", "photo", "unknown_slot",
     "slot must be thumbnail for a pass of this template."),
    ("event", "Thumbnail", "unknown_slot",
     "slot must be strip and thumbnail for a pass of this template."),
])
def test_slots_a_pass_cannot_set(api: Api, png: Any, kind: str, slot: str, code: str,
                                 message: str) -> None:
    template = make_template(api, kind)
    pass_id = issue(api, template).get_json()["id"]
    asset = upload(api, png, "thumbnail")
    error = assert_error(put_image(api, pass_id, slot, {"assetId": asset}), 400,
                         "invalid_request_error", code, "slot")
    assert error["message"] == message
    assert_error(api.delete(f"/v1/passes/{pass_id}/images/{slot}"), 400,
                 "invalid_request_error", code, "slot")


def test_an_asset_of_another_slot_is_refused(api: Api, png: Any, item: dict) -> None:
    logo = upload(api, png, "logo")
    error = assert_error(put_image(api, item["id"], "thumbnail", {"assetId": logo}), 400,
                         "invalid_request_error", "asset_slot_mismatch", "assetId")
    assert error["message"] == f"Asset {logo} was uploaded for the logo slot, not thumbnail."


@pytest.mark.parametrize("asset_id", ["asset_01nosuchasset0000000000000", "nope"])
def test_an_unknown_asset_is_404(api: Api, item: dict, asset_id: str) -> None:
    error = assert_error(put_image(api, item["id"], "thumbnail", {"assetId": asset_id}), 404,
                         "not_found_error", "resource_missing", "assetId")
    assert error["message"] == f"No such asset: {asset_id}"


def test_another_tenants_asset_is_404_as_an_unknown_one(api: Api, other_api: Api, png: Any,
                                                        item: dict) -> None:
    theirs = upload(other_api, png, "thumbnail")
    error = assert_error(put_image(api, item["id"], "thumbnail", {"assetId": theirs}), 404,
                         "not_found_error", "resource_missing", "assetId")
    assert error["message"] == f"No such asset: {theirs}"
    assert api.get(f"/v1/passes/{item['id']}").get_json()["images"] == {}


def test_another_tenants_pass_is_404_for_images(api: Api, other_api: Api, png: Any,
                                                item: dict) -> None:
    theirs = upload(other_api, png, "thumbnail")
    assert_error(put_image(other_api, item["id"], "thumbnail", {"assetId": theirs}), 404,
                 "not_found_error", "resource_missing", "id")
    assert_error(other_api.delete(f"/v1/passes/{item['id']}/images/thumbnail"), 404,
                 "not_found_error", "resource_missing", "id")


def test_the_same_asset_again_changes_nothing(api: Api, png: Any, item: dict) -> None:
    asset = upload(api, png, "thumbnail")
    assert put_image(api, item["id"], "thumbnail", {"assetId": asset}).status_code == 200
    assert_error(put_image(api, item["id"], "thumbnail", {"assetId": asset}), 400,
                 "invalid_request_error", "nothing_changed", "assetId")


def test_a_voided_pass_takes_no_images(api: Api, png: Any, item: dict) -> None:
    asset = upload(api, png, "thumbnail")
    assert api.delete(f"/v1/passes/{item['id']}").status_code == 200
    assert_error(put_image(api, item["id"], "thumbnail", {"assetId": asset}), 400,
                 "invalid_request_error", "pass_voided")
    assert_error(api.delete(f"/v1/passes/{item['id']}/images/thumbnail"), 400,
                 "invalid_request_error", "pass_voided")


@pytest.mark.parametrize(("body", "code", "message"), [
    ({}, "parameter_missing", "assetId is required."),
    ({"assetId": 5}, "parameter_invalid", "assetId: Not a valid string."),
    ({"assetId": None}, "parameter_invalid", "assetId: Field may not be null."),
    ({"assetId": ""}, "parameter_invalid", "assetId: Length must be between 1 and 64."),
])
def test_bad_image_bodies(api: Api, item: dict, body: dict, code: str, message: str) -> None:
    error = assert_error(put_image(api, item["id"], "thumbnail", body), 400,
                         "invalid_request_error", code, "assetId")
    assert error["message"] == message


def test_an_image_body_takes_no_other_member(api: Api, png: Any, item: dict) -> None:
    asset = upload(api, png, "thumbnail")
    assert_error(put_image(api, item["id"], "thumbnail",
                           {"assetId": asset, "notificationMode": "notify"}), 400,
                 "invalid_request_error", "parameter_unknown", "notificationMode")


def test_put_needs_an_idempotency_key_and_replays_with_it(api: Api, png: Any,
                                                          item: dict) -> None:
    asset = upload(api, png, "thumbnail")
    path = f"/v1/passes/{item['id']}/images/thumbnail"
    without_key = api.client.put(path, json={"assetId": asset},
                                 headers={"Authorization": f"Bearer {api.key}"})
    assert_error(without_key, 400, "invalid_request_error", "idempotency_key_missing")
    headers = {"Idempotency-Key": "image-once"}
    first = api.request("PUT", path, {"assetId": asset}, headers=headers)
    again = api.request("PUT", path, {"assetId": asset}, headers=headers)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()


def test_a_read_only_key_cannot_set_images(app: Any, client: Any, org: dict, png: Any,
                                           api: Api, item: dict) -> None:
    from webapp.services.accounts import api_keys

    with app.app_context():
        _key, secret = api_keys.create(org["id"], "test", "reader",
                                       permissions={"passes": "read", "assets": "read"})
    reader = Api(client, secret)
    asset = upload(api, png, "thumbnail")
    assert_error(put_image(reader, item["id"], "thumbnail", {"assetId": asset}), 403,
                 "permission_error", "insufficient_scope")


def test_openapi_documents_the_new_members_and_routes(client: Any) -> None:
    document = client.get("/v1/openapi.json").get_json()
    operations = document["paths"]["/v1/passes/{pass_id}/images/{slot}"]
    assert set(operations) == {"put", "delete"}
    assert operations["put"]["x-permission"] == "passes:write"
    body = operations["put"]["requestBody"]["content"]["application/json"]["schema"]
    image_body = document["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]
    assert image_body["required"] == ["assetId"]
    assert image_body["properties"]["assetId"]["examples"]
    schemas = document["components"]["schemas"]
    for name in ("PassCreate", "PassUpdateBody"):
        for member in ("expiresAt", "relevantDate"):
            assert schemas[name]["properties"][member]["examples"] == [
                "2027-06-30T23:59:00+02:00"]
    shown = schemas["Pass"]["properties"]
    assert {"expiresAt", "relevantDate", "images"} <= set(shown)
    assert {"expiresAt", "relevantDate", "images"} <= set(schemas["Pass"]["required"])
