"""A pass's own expiry and images in its Google object (bodies the fake checks against
Google's schema: TimeInterval, Image, ImageModuleData), written at issue and patched by an
update, which clears what the pass no longer has."""

from __future__ import annotations

from typing import Any

from tests.api.factories import template_body
from tests.conftest import BASE_URL, Api, put_pass_image, upload_asset
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle

WHEN = "2027-06-30T23:59:00+02:00"


def make_template(api: Api, kind: str = "generic", **changes: Any) -> dict[str, Any]:
    body = template_body(kind, **changes)
    body["definition"]["platforms"] = {"apple": False, "google": True}
    response = api.post("/v1/templates", body)
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def upload(api: Api, png: Any, slot: str) -> str:
    return upload_asset(api, slot, png(200, 200))


def google_delivery(api: Api, update_id: str) -> dict[str, Any]:
    return dict(api.get(f"/v1/pass-updates/{update_id}").get_json()["delivery"]["google"])


def image(asset_id: str, description: str) -> dict[str, Any]:
    return {"sourceUri": {"uri": f"{BASE_URL}/assets/{asset_id}"},
            "contentDescription": {"defaultValue": {"language": "en", "value": description}}}


def saved_pass(api: Api, fake_google: FakeGoogle, template: dict[str, Any],
               **body: Any) -> dict[str, Any]:
    p = issue(api, template, **body)
    location = api.client.get(f"/p/{p['shortId']}/google").headers["Location"]
    assert fake_google.save(location).status_code == 200
    return p


def test_an_own_expiry_is_the_objects_valid_time_interval(
        api: Api, fake_google: FakeGoogle) -> None:
    template = make_template(api, expiresAt="2026-12-31T23:00:00Z")
    plain = issue(api, template, fieldValues={"member": "Ada"})
    own = issue(api, template, fieldValues={"member": "Bea"}, expiresAt=WHEN)
    assert plain["artifacts"]["google"]["ready"] and own["artifacts"]["google"]["ready"]
    stored = fake_google.resource("genericObject", f"{ISSUER}.{plain['id']}")
    assert stored["validTimeInterval"] == {"end": {"date": "2026-12-31T23:00:00Z"}}
    stored = fake_google.resource("genericObject", f"{ISSUER}.{own['id']}")
    assert stored["validTimeInterval"] == {"end": {"date": WHEN}}


def test_an_expiry_change_patches_the_object_and_clearing_it_clears(
        api: Api, fake_google: FakeGoogle, served: str) -> None:
    template = make_template(api)
    p = saved_pass(api, fake_google, template, fieldValues={"member": "Ada"})
    obj_id = f"{ISSUER}.{p['id']}"
    assert "validTimeInterval" not in fake_google.resource("genericObject", obj_id)
    response = api.patch(f"/v1/passes/{p['id']}", {"expiresAt": WHEN})
    assert response.status_code == 200
    got = google_delivery(api, response.get_json()["update"]["id"])
    assert got == {"status": "updated", "message": None, "error": None}
    assert fake_google.resource("genericObject", obj_id)["validTimeInterval"] == {
        "end": {"date": WHEN}}
    cleared = api.patch(f"/v1/passes/{p['id']}", {"expiresAt": None})
    assert google_delivery(api, cleared.get_json()["update"]["id"])["status"] == "updated"
    assert fake_google.resource("genericObject", obj_id)["validTimeInterval"] is None


def test_a_date_change_in_notify_mode_tells_the_holder(
        api: Api, fake_google: FakeGoogle, served: str) -> None:
    template = make_template(api)
    p = saved_pass(api, fake_google, template, fieldValues={"member": "Ada"})
    response = api.patch(f"/v1/passes/{p['id']}",
                         {"expiresAt": WHEN, "notificationMode": "notify"})
    got = google_delivery(api, response.get_json()["update"]["id"])
    assert got == {"status": "updated", "message": f"Expires: {WHEN}", "error": None}
    [message] = fake_google.resource("genericObject", f"{ISSUER}.{p['id']}")["messages"]
    assert message["messageType"] == "TEXT_AND_NOTIFY"


def test_a_member_photo_is_an_image_module(api: Api, fake_google: FakeGoogle, served: str,
                                           png: Any) -> None:
    template = make_template(api)
    p = saved_pass(api, fake_google, template, fieldValues={"member": "Ada"},
                   holderName="Ada Lovelace")
    obj_id = f"{ISSUER}.{p['id']}"
    photo = upload(api, png, "thumbnail")
    update = put_pass_image(api, p["id"], "thumbnail", photo)["update"]
    assert google_delivery(api, update["id"])["status"] == "updated"
    stored = fake_google.resource("genericObject", obj_id)
    assert stored["imageModulesData"] == [
        {"id": "thumbnail", "mainImage": image(photo, "Ada Lovelace")}]
    removed = api.delete(f"/v1/passes/{p['id']}/images/thumbnail")
    assert google_delivery(api, removed.get_json()["update"]["id"])["status"] == "updated"
    assert fake_google.resource("genericObject", obj_id)["imageModulesData"] is None


def test_an_event_tickets_own_strip_is_its_hero_image(api: Api, fake_google: FakeGoogle,
                                                       png: Any) -> None:
    template = make_template(api, "event")
    p = issue(api, template, fieldValues={"seat": "A1"}, barcodeValue="T-1")
    obj_id = f"{ISSUER}.{p['id']}"
    assert "heroImage" not in fake_google.resource("eventTicketObject", obj_id)
    strip = upload(api, png, "strip")
    put_pass_image(api, p["id"], "strip", strip)
    stored = fake_google.resource("eventTicketObject", obj_id)
    assert stored["heroImage"] == image(strip, "Membership")


def test_an_event_tickets_own_expiry_is_written_at_issue(api: Api,
                                                         fake_google: FakeGoogle) -> None:
    template = make_template(api, "event")
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"seat": "A1"}, "barcodeValue": "T-1",
                                       "expiresAt": WHEN})
    assert response.status_code == 201
    stored = fake_google.resource("eventTicketObject", f"{ISSUER}.{response.get_json()['id']}")
    assert stored["validTimeInterval"] == {"end": {"date": WHEN}}


def test_the_fake_refuses_bodies_googles_schema_refuses(fake_google: FakeGoogle) -> None:
    from tests.support import fake_google as fake

    assert fake._time_interval_problem({"end": {"date": WHEN}}) is None
    assert fake._time_interval_problem({"end": WHEN}) == "Invalid validTimeInterval.end"
    assert fake._time_interval_problem({"until": {"date": WHEN}}) == "Invalid validTimeInterval"
    assert fake._time_interval_problem({"end": {"date": "30/06/2027"}}) == \
        "Invalid validTimeInterval.end"
    good = {"id": "thumbnail", "mainImage": image("asset_1", "x")}
    assert fake._image_modules_problem([good]) is None
    assert fake._image_modules_problem([{**good, "id": "a.b"}]) == "Invalid ImageModuleData"
    assert fake._image_modules_problem([{"mainImage": {"uri": "x"}}]) == \
        "Invalid ImageModuleData"
