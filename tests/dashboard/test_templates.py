"""The template designer: create, edit through the form, live preview, save with
expectedRevision, conflicts, images, settings, history, archive and duplicate."""

from __future__ import annotations

import base64
import re
from html import unescape
from typing import Any

import pytest

from tests.api.factories import EVENT, GENERIC, definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_data, text
from webapp.dashboard import designer


@pytest.fixture
def template_id(api: Api) -> str:
    response = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                          "definition": definition()})
    return response.get_json()["id"]


def _form(dash: Dash, template_id: str) -> dict[str, str]:
    return form_data(text(dash.get(f"/dashboard/test/templates/{template_id}")), "design-form")


def _save(dash: Dash, template_id: str, form: dict[str, str]) -> Any:
    return dash.post(f"/dashboard/test/templates/{template_id}", form, htmx=True, header=True)


SEATED_EVENT = {**EVENT, "event": {
    **EVENT["event"], "category": "movie", "seatFields": {"number": "seat", "gate": "seat"},
    "venue": {"name": "Hall", "address": "1 Main St",
              "location": {"latitude": 52.5, "longitude": 13.4}}}}


@pytest.mark.parametrize("original", [GENERIC, EVENT, SEATED_EVENT])
def test_form_round_trip_keeps_the_definition(original: dict[str, Any]) -> None:
    from werkzeug.datastructures import MultiDict

    state = designer.from_definition(original, "Name", 3)
    assert designer.for_save(state, original["type"], original) == original
    posted = MultiDict(_as_inputs(state))
    again = designer.from_form(posted)
    assert designer.for_save(again, original["type"], original) == original


def _as_inputs(state: dict[str, Any]) -> dict[str, str]:
    out = {"name": state["name"], "revision": str(state["revision"]),
           "description": state["description"], "organizationName": state["organizationName"],
           "logoText": state["logoText"], "tz": state["tz"], "expiresAt": state["expiresAt"],
           "color-background": state["colors"]["background"],
           "color-foreground": state["colors"]["foreground"],
           "color-label": state["colors"]["label"],
           "barcode-format": state["barcode"]["format"], "barcode-mode": state["barcode"]["mode"],
           "barcode-value": state["barcode"]["value"],
           "barcode-altText": state["barcode"]["altText"]}
    for flag, on in (("color-label-on", state["colors"]["label_on"]),
                     ("platform-apple", state["platforms"]["apple"]),
                     ("platform-google", state["platforms"]["google"]),
                     ("barcode-on", state["barcode"]["on"])):
        if on:
            out[flag] = "on"
    for group, rows in state["groups"].items():
        for i, row in enumerate(rows):
            for attr, value in row.items():
                if attr == "required":
                    if value:
                        out[f"f-{group}-{i}-required"] = "on"
                else:
                    out[f"f-{group}-{i}-{attr}"] = value
    for key, value in state["event"].items():
        if key == "seatFields":
            out.update({f"event-seat-{part}": field for part, field in value.items()})
        else:
            out[f"event-{key}"] = value
    return out


@pytest.mark.parametrize(("path", "name"), [
    ("/config/fields/header/0/key", "f-header-0-key"), ("/colors/label", "color-label"),
    ("/config/fields/primary", "group-primary"), ("/event/venue/name", "event-venue_name"),
    ("/event/startsAt", "event-startsAt"), ("/locations/2/latitude", "loc-2-latitude"),
    ("/barcode/value", "barcode-value"), ("/images/logo", "img-logo"), ("", ""),
    ("/platforms", "platforms"), ("/config/fields/back/1", "f-back-1-key"),
])
def test_issues_are_placed_next_to_their_input(path: str, name: str) -> None:
    assert designer.input_for(path) == name


def test_create_a_template_opens_the_designer(dash: Dash, api: Api) -> None:
    response = dash.post("/dashboard/test/templates/new", {"name": "Concert", "type":
                                                           "event_ticket"})
    assert response.status_code == 303
    template_id = response.headers["Location"].rsplit("/", 1)[1]
    got = api.get(f"/v1/templates/{template_id}").get_json()
    assert got["revision"] == 1 and got["definition"]["event"]["name"] == "Your event"
    page = text(dash.get(response.headers["Location"]))
    assert 'id="design-form"' in page and 'name="event-startsAt"' in page
    assert "Ready to save" in page  # the starter design validates


def test_designer_keeps_the_event_ticket_members(dash: Dash, api: Api) -> None:
    created = api.post("/v1/templates", {"name": "Film", "type": "event_ticket",
                                         "definition": SEATED_EVENT}).get_json()
    form = _form(dash, created["id"])
    assert form["event-category"] == "movie" and form["event-seat-number"] == "seat"
    assert form["event-venue_latitude"] == "52.5" and form["event-seat-row"] == ""
    form["event-category"] = "workshop"
    form["event-seat-row"] = "seat"
    assert _save(dash, created["id"], form).status_code == 200
    event = api.get(f"/v1/templates/{created['id']}").get_json()["definition"]["event"]
    assert event["category"] == "workshop"
    assert event["seatFields"] == {"row": "seat", "number": "seat", "gate": "seat"}
    assert event["venue"]["location"] == {"latitude": 52.5, "longitude": 13.4}


def test_designer_places_a_seat_field_issue_next_to_its_select(dash: Dash, api: Api) -> None:
    created = api.post("/v1/templates", {"name": "Film", "type": "event_ticket",
                                         "definition": SEATED_EVENT}).get_json()
    form = _form(dash, created["id"])
    form["event-venue_latitude"] = "95"
    response = _save(dash, created["id"], form)
    assert response.status_code == 422
    assert 'id="err-event-venue_latitude"' in text(response)
    assert designer.input_for("/event/seatFields/gate") == "event-seat-gate"
    assert designer.input_for("/event/venue/location/longitude") == "event-venue_longitude"


def test_create_with_a_bad_name_is_422(dash: Dash) -> None:
    response = dash.post("/dashboard/test/templates/new", {"name": "", "type": "generic"})
    assert response.status_code == 422
    assert 'id="err-name">name must be 1 to 100 characters.</p>' in text(response)


def test_list_active_and_archived(dash: Dash, api: Api, template_id: str) -> None:
    assert "Gym" in text(dash.get("/dashboard/test/templates"))
    api.delete(f"/v1/templates/{template_id}")
    assert "Gym" not in text(dash.get("/dashboard/test/templates"))
    assert "Gym" in text(dash.get("/dashboard/test/templates?archived=1"))


def test_untouched_save_makes_no_revision(dash: Dash, api: Api, template_id: str) -> None:
    response = _save(dash, template_id, _form(dash, template_id))
    assert response.status_code == 200
    assert "The design did not change" in text(response)
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 1


def test_add_a_field_through_the_form_and_save(dash: Dash, api: Api, template_id: str) -> None:
    form = _form(dash, template_id)
    response = dash.post(f"/dashboard/test/templates/{template_id}/form",
                         {**form, "op": "add:header"}, htmx=True, header=True)
    assert response.status_code == 200
    form = form_data(text(response), "design-form")
    assert form["f-header-0-key"] == "field1" and form["f-header-0-binding"] == "perPass"
    form.update({"f-header-0-key": "gate", "f-header-0-label": "Gate",
                 "f-header-0-binding": "shared", "f-header-0-value": "North",
                 "f-secondary-0-changeMessage": "Your level is now %@"})
    response = _save(dash, template_id, form)
    assert "Saved as revision 2." in text(response)
    got = api.get(f"/v1/templates/{template_id}").get_json()
    assert got["definition"]["config"]["fields"]["header"] == [
        {"key": "gate", "label": "Gate", "binding": "shared", "value": "North"}]
    assert got["definition"]["config"]["fields"]["secondary"][0]["changeMessage"] == \
        "Your level is now %@"


def test_operations_move_and_remove_fields_and_locations(dash: Dash, template_id: str) -> None:
    url = f"/dashboard/test/templates/{template_id}/form"
    form = _form(dash, template_id)
    moved = form_data(text(dash.post(url, {**form, "op": "down:secondary:0"}, htmx=True,
                                     header=True)), "design-form")
    assert (moved["f-secondary-0-key"], moved["f-secondary-1-key"]) == ("club", "level")
    removed = form_data(text(dash.post(url, {**moved, "op": "remove:secondary:0"}, htmx=True,
                                       header=True)), "design-form")
    assert removed["f-secondary-0-key"] == "level" and "f-secondary-1-key" not in removed
    with_loc = form_data(text(dash.post(url, {**removed, "op": "addloc"}, htmx=True,
                                        header=True)), "design-form")
    assert with_loc["loc-0-latitude"] == ""
    without = form_data(text(dash.post(url, {**with_loc, "op": "removeloc:0"}, htmx=True,
                                       header=True)), "design-form")
    assert "loc-0-latitude" not in without


def test_preview_follows_the_unsaved_form(dash: Dash, template_id: str) -> None:
    form = _form(dash, template_id)
    form.update({"color-background": "#7a1f5c", "f-primary-0-label": "Guest",
                 "f-secondary-1-value": "Uptown", "barcode-on": "on"})
    response = dash.post(f"/dashboard/test/templates/{template_id}/preview", form, htmx=True,
                         header=True)
    assert response.status_code == 200
    page = text(response)
    assert 'data-background="#7a1f5c"' in page and "Guest" in page and "Uptown" in page
    assert "<svg" in page  # the barcode is drawn
    form["f-primary-0-key"] = "bad key"
    page = text(dash.post(f"/dashboard/test/templates/{template_id}/preview", form,
                          htmx=True, header=True))
    assert "1 problem to fix before saving" in page


def test_invalid_design_is_422_with_messages_next_to_fields(dash: Dash, api: Api,
                                                            template_id: str) -> None:
    form = _form(dash, template_id)
    form.update({"f-secondary-0-key": "member", "f-secondary-0-changeMessage": "no marker",
                 "organizationName": ""})
    response = _save(dash, template_id, form)
    assert response.status_code == 422
    page = unescape(text(response))
    assert "Not saved: 3 problems to fix." in page
    assert ('id="err-f-secondary-0-key">The secondary row\'s first field\'s key is member, '
            'which an earlier field already uses.</p>') in page
    assert ('id="err-f-secondary-0-changeMessage">The secondary row\'s first field\'s change '
            'message must contain %@ where the new value goes.</p>') in page
    assert 'id="err-organizationName">The template needs an organization name.</p>' in page
    assert "config.fields" not in page
    assert 'value="no marker"' in page  # what was typed stays
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 1


def test_stale_save_shows_the_conflict_with_a_way_to_reload(dash: Dash, api: Api,
                                                            template_id: str) -> None:
    form = _form(dash, template_id)
    api.patch(f"/v1/templates/{template_id}", {"expectedRevision": 1,
                                               "definition": definition(description="Other")})
    form["description"] = "Mine"
    response = _save(dash, template_id, form)
    assert response.status_code == 409
    page = text(response)
    assert "Someone else saved this template while you were editing" in page
    assert f'href="/dashboard/test/templates/{template_id}">Reload the latest revision' in page
    assert 'value="Mine"' in page
    response = _save(dash, template_id, {**form, "overwrite": "2"})
    assert "Saved as revision 3." in text(response)
    assert api.get(f"/v1/templates/{template_id}").get_json()["definition"]["description"] == \
        "Mine"


def test_upload_an_image_and_use_it(dash: Dash, api: Api, template_id: str, png: Any) -> None:
    data = base64.b64decode(png(160, 50))
    response = dash.post(f"/dashboard/test/templates/{template_id}/images/logo",
                         {"file-logo": (__import__("io").BytesIO(data), "logo.png")},
                         htmx=True, header=True, content_type="multipart/form-data")
    assert response.status_code == 200
    assert response.headers["HX-Trigger-After-Settle"] == "refreshPreview"
    asset_id = re.search(r'name="img-logo" value="(asset_[0-9a-z]+)"', text(response)).group(1)
    assert f'src="/assets/{asset_id}"' in text(response) and "160\u00d750 PNG" in text(response)
    form = {**_form(dash, template_id), "img-logo": asset_id}
    assert "Saved as revision 2." in text(_save(dash, template_id, form))
    got = api.get(f"/v1/templates/{template_id}").get_json()
    assert got["definition"]["images"] == {"logo": asset_id}
    page = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert f'<img class="logo" src="/assets/{asset_id}"' in page


def test_upload_a_bad_image_is_422_in_its_slot(dash: Dash, template_id: str) -> None:
    response = dash.post(f"/dashboard/test/templates/{template_id}/images/logo",
                         {"file-logo": (__import__("io").BytesIO(b"not an image"), "x.png")},
                         htmx=True, header=True, content_type="multipart/form-data")
    assert response.status_code == 422
    assert 'class="field-error"' in text(response)
    assert text(response).lstrip().startswith('<div class="slot has-error" id="slot-logo">')


def test_archive_unarchive_duplicate(dash: Dash, api: Api, template_id: str) -> None:
    assert dash.post(f"/dashboard/test/templates/{template_id}/archive").status_code == 303
    assert api.get(f"/v1/templates/{template_id}").get_json()["archived"] is True
    page = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert "This template is archived" in page and "<fieldset disabled" in page
    assert _save(dash, template_id, _form(dash, template_id)).status_code == 409
    response = dash.post(f"/dashboard/test/templates/{template_id}/duplicate")
    copy_id = response.headers["Location"].rsplit("/", 1)[1]
    assert api.get(f"/v1/templates/{copy_id}").get_json()["name"] == "Copy of Gym"
    dash.post(f"/dashboard/test/templates/{template_id}/unarchive")
    assert api.get(f"/v1/templates/{template_id}").get_json()["archived"] is False


def test_history_lists_revisions_with_their_definitions(dash: Dash, api: Api,
                                                        template_id: str) -> None:
    api.patch(f"/v1/templates/{template_id}", {"expectedRevision": 1,
                                               "definition": definition(description="Two")})
    page = text(dash.get(f"/dashboard/test/templates/{template_id}/revisions?revision=1"))
    assert "Revision 2</a> <span class=\"badge green\">current" in page
    assert '"description": "Gym membership"' in page
    old = text(dash.get(f"/dashboard/test/templates/{template_id}?from_revision=1"))
    assert "Showing revision 1." in old and 'value="Gym membership"' in old
    assert dash.get(f"/dashboard/test/templates/{template_id}/revisions?revision=9"
                    ).status_code == 404


def test_settings_choose_default_credentials(dash: Dash, api: Api, template_id: str) -> None:
    response = dash.post(f"/dashboard/test/templates/{template_id}/settings",
                         {"apple_certificate_id": "cert_notmine"})
    assert response.status_code == 303
    assert "No Apple certificate cert_notmine" in text(dash.get(response.headers["Location"]))
    response = dash.post(f"/dashboard/test/templates/{template_id}/settings",
                         {"apple_certificate_id": "", "google_issuer_id": ""})
    assert "Template settings saved." in text(dash.get(response.headers["Location"]))


def test_another_organizations_template_is_404(other_dash: Dash, template_id: str) -> None:
    base = f"/dashboard/test/templates/{template_id}"
    assert other_dash.get(base).status_code == 404
    assert other_dash.get(base + "/revisions").status_code == 404
    for suffix in ("", "/form", "/preview", "/archive", "/duplicate", "/settings",
                   "/images/logo"):
        assert other_dash.post(base + suffix).status_code == 404, suffix


@pytest.mark.parametrize(("issue", "said"), [
    ({"path": "/config/fields/secondary/0/key", "code": "required",
      "message": "config.fields.secondary[0].key is required."},
     "The secondary row's first field needs a key."),
    ({"path": "/config/fields/primary", "code": "too_many",
      "message": "config.fields.primary can hold at most 3 fields."},
     "The primary row can hold at most 3 fields."),
    ({"path": "/event/venue/name", "code": "too_long",
      "message": "event.venue.name must be at most 200 characters."},
     "The event's venue must be at most 200 characters."),
    ({"path": "/locations/1/latitude", "code": "out_of_range",
      "message": "locations[1].latitude must be between -90 and 90."},
     "The second location's latitude must be between -90 and 90."),
    ({"path": "/colors/background", "code": "invalid_color",
      "message": "colors.background must be a colour like #1d2b53."},
     "The template's background colour must be a colour like #1d2b53."),
    ({"path": "", "code": "invalid_type", "message": "The definition must be an object."},
     "The definition must be an object."),
])
def test_issues_are_said_in_words(issue: dict[str, str], said: str) -> None:
    assert designer.words(issue) == said


def test_an_empty_key_is_a_missing_key(dash: Dash, template_id: str) -> None:
    form = _form(dash, template_id)
    form.update({"f-secondary-0-key": "", "f-primary-0-label": "x" * 65})
    page = unescape(text(_save(dash, template_id, form)))
    assert ('<p class="field-error" id="err-f-secondary-0-key">The secondary row\'s first '
            'field needs a key.</p>') in page
    assert re.search(r'name="f-secondary-0-key"[^>]*aria-invalid="true" '
                     r'aria-describedby="err-f-secondary-0-key"', page)
    assert "The primary row's first field's label must be at most 64 characters." in page


def test_edit_buttons_and_failed_saves_keep_the_design_marked_changed(
        dash: Dash, template_id: str) -> None:
    form = _form(dash, template_id)
    untouched = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert "data-dirty" not in untouched
    assert '<span class="dirty-note" hidden>' in untouched
    for op in ("add:header", "remove:secondary:0", "down:secondary:0", "addloc"):
        page = text(dash.post(f"/dashboard/test/templates/{template_id}/form",
                              {**form, "op": op}, htmx=True, header=True))
        assert "data-track-changes data-dirty=\"1\"" in page, op
        assert '<span class="dirty-note" >Unsaved changes</span>' in page, op
    failed = _save(dash, template_id, {**form, "organizationName": ""})
    assert failed.status_code == 422
    assert "data-track-changes data-dirty=\"1\"" in text(failed)
    assert ('<a class="savebar-problem" href="#problems">Not saved: 1 problem to fix, shown '
            'next to each input.</a>') in text(failed)
    saved = text(_save(dash, template_id, {**form, "description": "New"}))
    assert "data-dirty" not in saved
    assert ('<span class="saved-note" role="status">Saved as revision 2. Passes issued from now '
            'on use it; passes already issued keep revision 1, so no wallet is updated.</span>'
            ) in saved


def test_designer_offers_only_the_images_a_wallet_shows(dash: Dash, api: Api,
                                                         template_id: str) -> None:
    generic = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert 'name="img-thumbnail"' in generic
    assert 'name="img-background"' not in generic and 'name="img-footer"' not in generic
    created = api.post("/v1/templates", {"name": "Film", "type": "event_ticket",
                                         "definition": EVENT}).get_json()
    event = text(dash.get(f"/dashboard/test/templates/{created['id']}"))
    assert 'name="img-background"' in event and 'name="img-footer"' not in event
