"""What the pass page says each wallet will do with an edit, before the save (the live notice
under the edit form) and after it (the confirmation): the same words, per case."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import definition
from tests.apple.conftest import Device, apple_overrides, auth_token
from tests.conftest import Api, app_with
from tests.dashboard.conftest import Dash, text

NO_DEVICE = "Apple Wallet: no iPhone has this pass yet; it shows the new values when it is added."
GOOGLE_UNCONFIGURED = ("Google Wallet: not updated: Test passes need the operator's Google demo "
                       "issuer (DEMO_GOOGLE_SERVICE_ACCOUNT); the generated one is not known "
                       "to Google.")


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """The demo Apple identity configured; pushes go to a closed local port."""
    yield from app_with(database, database_url, tmp_path, apple_overrides())


def _template(api: Api, **level: Any) -> str:
    body = definition()
    body["config"]["fields"]["secondary"][0].update(level)
    response = api.post("/v1/templates", {"name": "Gym", "type": "generic", "definition": body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def _issue(api: Api, template_id: str) -> str:
    response = api.post("/v1/passes", {"templateId": template_id,
                                       "fieldValues": {"member": "Ada", "level": "Gold"}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def _register_iphone(app: Flask, client: Any, pass_id: str) -> None:
    from webapp.extensions import db
    from webapp.models import Pass
    from webapp.services.apple import passes

    with app.app_context():
        pass_type = passes.pass_type_identifier(db.session.get(Pass, pass_id))
    device = Device(client, "iphone1", "ab" * 32)
    assert device.register(pass_type, pass_id, auth_token(app, pass_id)).status_code == 201


def _before(dash: Dash, pass_id: str, form: dict[str, str]) -> list[str]:
    response = dash.post(f"/dashboard/test/passes/{pass_id}/edit/notice", form, htmx=True,
                         header=True)
    assert response.status_code == 200
    return [unescape(line) for line in re.findall(r'<li data-wallet="\w+">([^<]*)</li>',
                                                   text(response))]


def _after(dash: Dash, pass_id: str, form: dict[str, str]) -> list[str]:
    response = dash.post(f"/dashboard/test/passes/{pass_id}/edit", form, htmx=True, header=True)
    assert response.status_code == 200, text(response)
    with dash.client.session_transaction() as session:
        return [message for _category, message in session.get("_flashes", [])]


@pytest.mark.parametrize(("level", "mode", "apple"), [
    ({}, "notify", "Apple Wallet: the iPhone with the pass shows “Level: Platinum”. (No change "
                   "message on Level: the label and new value are shown.)"),
    ({"changeMessage": "You are now %@"}, "notify",
     "Apple Wallet: the iPhone with the pass shows “You are now Platinum”."),
    ({"changeMessage": "You are now %@"}, "silent",
     "Apple Wallet: the iPhone with the pass gets the update silently (no message)."),
])
def test_an_installed_pass_says_what_the_iphone_shows(app: Flask, client: Any, dash: Dash,
                                                      api: Api, level: dict[str, str],
                                                      mode: str, apple: str) -> None:
    pass_id = _issue(api, _template(api, **level))
    _register_iphone(app, client, pass_id)
    form = {"fv-member": "Ada", "fv-level": "Platinum", "notification_mode": mode}
    before = _before(dash, pass_id, form)
    assert before == [apple, GOOGLE_UNCONFIGURED]
    assert _after(dash, pass_id, form) == ["Saved 1 change.", *before]


def test_nothing_installed_and_google_unconfigured(dash: Dash, api: Api) -> None:
    pass_id = _issue(api, _template(api))
    form = {"fv-member": "Ada", "fv-level": "Platinum", "notification_mode": "notify"}
    before = _before(dash, pass_id, form)
    assert before == [NO_DEVICE, GOOGLE_UNCONFIGURED]
    assert _after(dash, pass_id, form) == ["Saved 1 change.", NO_DEVICE, GOOGLE_UNCONFIGURED]


def test_a_cleared_value_has_no_message_on_the_iphone(app: Flask, client: Any, dash: Dash,
                                                      api: Api) -> None:
    pass_id = _issue(api, _template(api))
    _register_iphone(app, client, pass_id)
    form = {"fv-member": "Ada", "fv-level": "", "notification_mode": "notify"}
    assert _before(dash, pass_id, form)[0] == (
        "Apple Wallet: the iPhone with the pass gets the update silently (a cleared value has "
        "no message).")


def test_the_notice_asks_for_a_change_until_there_is_one(dash: Dash, api: Api) -> None:
    pass_id = _issue(api, _template(api))
    response = dash.post(f"/dashboard/test/passes/{pass_id}/edit/notice",
                         {"fv-member": "Ada", "fv-level": "Gold"}, htmx=True, header=True)
    assert response.status_code == 200
    assert "Change a value to see what each wallet will show." in text(response)
    bad = dash.post(f"/dashboard/test/passes/{pass_id}/edit/notice", {"fv-member": ""},
                    htmx=True, header=True)
    assert bad.status_code == 200 and "<li" not in text(bad)


def test_the_notice_of_another_organizations_pass_is_404(other_dash: Dash, api: Api) -> None:
    pass_id = _issue(api, _template(api))
    response = other_dash.post(f"/dashboard/test/passes/{pass_id}/edit/notice",
                               {"fv-level": "Platinum"}, htmx=True, header=True)
    assert response.status_code == 404


def test_the_designer_says_what_a_save_does_before_and_after(dash: Dash, api: Api) -> None:
    from tests.dashboard.test_templates import _form, _save

    template_id = _template(api)
    page = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert ('<span class="save-notice muted text-s">Saving makes revision 2 for passes issued '
            'from now on; passes already issued keep their design and no wallet is updated.'
            '</span>') in page
    saved = text(_save(dash, template_id, {**_form(dash, template_id), "description": "New"}))
    assert ("Saved as revision 2. Passes issued from now on use it; passes already issued "
            "keep revision 1, so no wallet is updated.") in saved


def test_the_designer_offers_the_label_as_the_default_change_message(dash: Dash, api: Api
                                                                     ) -> None:
    page = text(dash.get(f"/dashboard/test/templates/{_template(api)}"))
    assert ('name="f-secondary-0-changeMessage" value="" maxlength="200" placeholder="Level: %@" '
            'data-default-message') in page
