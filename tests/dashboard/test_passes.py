"""Passes in the dashboard: list, issue, detail, edit, void, download links."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.api.factories import definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, text


@pytest.fixture
def template_id(api: Api) -> str:
    response = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                          "definition": definition()})
    assert response.status_code == 201
    return response.get_json()["id"]


def _issue(dash: Dash, template_id: str, **values: str) -> str:
    data = {"template_id": template_id, "fv-member": "Ada", "platform-apple": "on",
            "platform-google": "on", **values}
    response = dash.post("/dashboard/test/passes", data)
    assert response.status_code == 303, text(response)
    return response.headers["Location"].rsplit("/", 1)[1]


def test_issue_form_is_generated_from_per_pass_fields(dash: Dash, template_id: str) -> None:
    page = text(dash.get(f"/dashboard/test/passes/new?template={template_id}"))
    assert 'name="fv-member"' in page and 'name="fv-level"' in page
    assert 'name="fv-club"' not in page  # shared: set in the template
    assert re.search(r'id="f-fv-member" name="fv-member" value="" required', page)
    assert 'name="platform-apple" checked' in page and 'name="platform-google" checked' in page


def test_issue_a_pass_from_the_dashboard(dash: Dash, api: Api, template_id: str) -> None:
    pass_id = _issue(dash, template_id, holder_name="Ada Lovelace",
                     holder_email="ada@example.com", **{"fv-level": "Gold"})
    got = api.get(f"/v1/passes/{pass_id}").get_json()
    assert got["source"] == "dashboard"
    assert got["fieldValues"] == {"member": "Ada", "level": "Gold"}
    assert got["holderName"] == "Ada Lovelace"
    page = text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    assert f"Pass {got['shortId']} issued." in page
    assert "Ada Lovelace" in page and "Gold" in page and got["distributionUrl"] in page


def test_issue_for_one_wallet_only(dash: Dash, api: Api, template_id: str) -> None:
    response = dash.post("/dashboard/test/passes", {"template_id": template_id,
                                                    "fv-member": "Bo", "platform-apple": "on"})
    pass_id = response.headers["Location"].rsplit("/", 1)[1]
    assert api.get(f"/v1/passes/{pass_id}").get_json()["platforms"] == {"apple": True,
                                                                          "google": False}


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"fv-member": ""}, "fv-member", "Member is required."),
    ({"holder_email": "not an email"}, "holder_email", "holderEmail is not an email address."),
])
def test_issue_errors_are_422_next_to_the_field(dash: Dash, template_id: str,
                                                data: dict[str, str], field: str,
                                                message: str) -> None:
    body = {"template_id": template_id, "fv-member": "Ada", "platform-apple": "on", **data}
    response = dash.post("/dashboard/test/passes", body, htmx=True, header=True)
    assert response.status_code == 422
    page = text(response)
    assert page.lstrip().startswith('<section class="card" id="issue-form"')
    assert f'<p class="field-error" id="err-{field}">{message}</p>' in page
    assert 'value="Ada"' in page or field == "fv-member"  # what was typed is kept


def test_issue_with_no_wallet_is_422(dash: Dash, template_id: str) -> None:
    response = dash.post("/dashboard/test/passes", {"template_id": template_id,
                                                    "fv-member": "Ada"})
    assert response.status_code == 422
    assert "at least one wallet" in text(response)


def test_live_pass_without_credentials_is_422_with_the_reason(dash: Dash,
                                                              template_id: str) -> None:
    response = dash.post("/dashboard/live/passes", {"template_id": template_id,
                                                    "fv-member": "Ada", "platform-apple": "on"})
    assert response.status_code == 422
    assert "No live Apple certificate is set up" in text(response)


def test_list_search_filters_and_environment(dash: Dash, api: Api, live_api: Api,
                                             template_id: str) -> None:
    _issue(dash, template_id, holder_name="Grace Hopper")
    api.post("/v1/passes", {"templateId": template_id, "fieldValues": {"member": "x"},
                            "holderName": "Alan Turing"})
    page = text(dash.get("/dashboard/test/passes"))
    assert "Grace Hopper" in page and "Alan Turing" in page
    only = text(dash.get("/dashboard/test/passes?q=grace", headers={"HX-Request": "true"}))
    assert only.lstrip().startswith('<section class="card flush" id="pass-rows">')
    assert "Grace Hopper" in only and "Alan Turing" not in only
    api_only = text(dash.get("/dashboard/test/passes?source=api"))
    assert "Alan Turing" in api_only and "Grace Hopper" not in api_only
    voided = text(dash.get("/dashboard/test/passes?status=voided"))
    assert "No passes match these filters." in voided
    assert "No passes in live yet." in text(dash.get("/dashboard/live/passes"))


def test_list_pages_with_a_cursor(dash: Dash, api: Api, template_id: str) -> None:
    for number in range(26):
        api.post("/v1/passes", {"templateId": template_id, "fieldValues": {"member": "x"},
                                "holderName": f"Holder {number:02d}"})
    first = text(dash.get("/dashboard/test/passes"))
    assert "Holder 25" in first and "Holder 00" not in first
    cursor = re.search(r"cursor=(pass_[0-9a-z]+)", first).group(1)
    second = text(dash.get(f"/dashboard/test/passes?cursor={cursor}"))
    assert "Holder 00" in second and "Holder 25" not in second and "« Newest" in second


def test_bad_cursor_is_a_message_not_an_error_page(dash: Dash) -> None:
    response = dash.get("/dashboard/test/passes?cursor=pass_nope")
    assert response.status_code == 200
    assert "cursor does not name an item of this list." in text(response)


def test_detail_of_another_organization_or_environment_is_404(dash: Dash, other_dash: Dash,
                                                              template_id: str) -> None:
    pass_id = _issue(dash, template_id)
    assert other_dash.get(f"/dashboard/test/passes/{pass_id}").status_code == 404
    assert dash.get(f"/dashboard/live/passes/{pass_id}").status_code == 404
    for action in ("edit", "void", "download-links"):
        assert other_dash.post(f"/dashboard/test/passes/{pass_id}/{action}").status_code == 404
    assert dash.get("/dashboard/test/passes/../etc").status_code == 404


def test_detail_shows_wallets_artifacts_and_history(dash: Dash, template_id: str) -> None:
    pass_id = _issue(dash, template_id, **{"fv-level": "Gold"})
    page = text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    # Test passes are signed by the generated demo identities: said plainly, not "Ready to add".
    assert 'id="wallet-apple"' in page and "Demo certificate" in page
    assert 'id="wallet-google"' in page and "Demo issuer" in page
    assert "Ready to add" not in page and "Not available" not in page
    assert "No device has registered for updates yet." in page
    assert "No updates since the pass was issued." in page
    assert '<article class="pp-card pp-apple' in page and "<dt>Level</dt><dd>Gold</dd>" in page


def test_edit_with_notify_records_the_update(dash: Dash, api: Api, template_id: str) -> None:
    pass_id = _issue(dash, template_id, **{"fv-level": "Gold"})
    response = dash.post(f"/dashboard/test/passes/{pass_id}/edit",
                         {"fv-member": "Ada", "fv-level": "Platinum",
                          "notification_mode": "notify"}, htmx=True, header=True)
    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == f"/dashboard/test/passes/{pass_id}"
    updates = api.get(f"/v1/passes/{pass_id}/updates").get_json()["data"]
    assert updates[0]["notificationMode"] == "notify"
    assert updates[0]["changes"]["fields"] == [{"key": "level", "label": "Level",
                                                "from": "Gold", "to": "Platinum"}]
    page = text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    assert "Saved 1 change." in page  # then what each wallet does: test_update_notices.py
    assert "<del>Gold</del> → <ins>Platinum</ins>" in page and "Apple: " in page


def test_edit_clears_an_optional_value_silently(dash: Dash, api: Api, template_id: str) -> None:
    pass_id = _issue(dash, template_id, **{"fv-level": "Gold"})
    dash.post(f"/dashboard/test/passes/{pass_id}/edit", {"fv-member": "Ada", "fv-level": ""})
    got = api.get(f"/v1/passes/{pass_id}").get_json()
    assert got["fieldValues"] == {"member": "Ada"}
    updates = api.get(f"/v1/passes/{pass_id}/updates").get_json()["data"]
    assert updates[0]["notificationMode"] == "silent"


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"fv-member": ""}, "fv-member", "member is required"),
    ({"fv-member": "Ada"}, None, "Nothing changed"),
])
def test_edit_errors_are_422_in_the_values_card(dash: Dash, template_id: str,
                                                data: dict[str, str], field: str | None,
                                                message: str) -> None:
    pass_id = _issue(dash, template_id)
    response = dash.post(f"/dashboard/test/passes/{pass_id}/edit", data, htmx=True, header=True)
    assert response.status_code == 422
    page = text(response)
    assert page.lstrip().startswith('<section class="card" id="edit-values">')
    assert message in page
    if field:
        assert f'id="err-{field}"' in page


def test_void_is_final(dash: Dash, api: Api, template_id: str) -> None:
    pass_id = _issue(dash, template_id)
    page = text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    assert "hx-confirm=\"Void pass" in page
    assert dash.post(f"/dashboard/test/passes/{pass_id}/void").status_code == 303
    assert api.get(f"/v1/passes/{pass_id}").get_json()["status"] == "voided"
    again = dash.post(f"/dashboard/test/passes/{pass_id}/void")
    assert again.status_code == 303  # voiding twice shows the pass, no error page
    page = text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    assert "Voided passes cannot be changed." in page and "Void pass</button>" not in page
    edit = dash.post(f"/dashboard/test/passes/{pass_id}/edit", {"fv-member": "New"})
    assert edit.status_code == 422


def test_download_link_is_shown_once_and_works(dash: Dash, template_id: str) -> None:
    pass_id = _issue(dash, template_id)
    response = dash.post(f"/dashboard/test/passes/{pass_id}/download-links",
                         {"expires_in": "86400"}, htmx=True, header=True)
    assert response.status_code == 201
    url = re.search(r'data-copy="(https://[^"]+/d/[^"]+)"', text(response)).group(1)
    assert dash.client.get(url.replace("https://passes.example.test", "")).status_code == 200
    page = text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    assert url not in page and "Working" in page


def test_download_link_with_a_bad_lifetime_is_422(dash: Dash, template_id: str) -> None:
    pass_id = _issue(dash, template_id)
    response = dash.post(f"/dashboard/test/passes/{pass_id}/download-links",
                         {"expires_in": "soon"}, htmx=True, header=True)
    assert response.status_code == 422
    assert "expiresInSeconds must be an integer" in text(response)


def test_detail_shows_wallet_installations(app: Any, dash: Dash, template_id: str) -> None:
    from sqlalchemy import select, update

    from webapp import clock
    from webapp.db.transaction import transaction
    from webapp.models import AppleRegistration, GoogleObject, Pass

    pass_id = _issue(dash, template_id)
    with app.app_context(), transaction() as session:
        item = session.get(Pass, pass_id)
        session.add(AppleRegistration(
            pass_id=pass_id, organization_id=item.organization_id, environment="test",
            device_library_id="device-1", pass_type_identifier="pass.demo", push_token="t"))
        if session.scalar(select(GoogleObject.pass_id).where(GoogleObject.pass_id == pass_id)):
            session.execute(update(GoogleObject).where(GoogleObject.pass_id == pass_id)
                            .values(wallet_state="saved", saved_at=clock.now()))
        else:
            session.add(GoogleObject(pass_id=pass_id, organization_id=item.organization_id,
                                     environment="test", state="written",
                                     wallet_state="saved", saved_at=clock.now()))
    page = text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    assert "Installed on <strong>1</strong> device (registered for updates)" in page
    assert "<strong>Saved by the holder</strong>" in page


def test_installations_refuse_a_pass_of_another_environment_or_organization(
        app: Any, dash: Dash, template_id: str) -> None:
    from webapp.errors import NotFound
    from webapp.extensions import db
    from webapp.models import Pass
    from webapp.services.context import Context
    from webapp.services.passes import installations

    pass_id = _issue(dash, template_id)
    with app.app_context():
        item = db.session.get(Pass, pass_id)
        own = Context(item.organization_id, "test", "dashboard")
        assert installations.for_pass(own, item)["apple"] == {
            "issued": True, "devices": 0, "lastDelivery": None}
        for other in (Context(item.organization_id, "live", "dashboard"),
                      Context("org_someoneelse", "test", "dashboard")):
            with pytest.raises(NotFound):
                installations.for_pass(other, item)


@pytest.fixture
def starter_id(dash: Dash) -> str:
    """A template made in the dashboard: its starter design has a per-pass `holder` field."""
    response = dash.post("/dashboard/test/templates/new", {"name": "Club", "type": "generic"})
    assert response.status_code == 303
    return str(response.headers["Location"].rsplit("/", 1)[1])


def test_issue_form_asks_for_the_name_once(dash: Dash, api: Api, starter_id: str) -> None:
    page = text(dash.get(f"/dashboard/test/passes/new?template={starter_id}"))
    assert 'name="holder_name"' not in page
    assert page.count('name="fv-holder"') == 1 and page.count('>Name') == 1
    response = dash.post("/dashboard/test/passes", {
        "template_id": starter_id, "fv-holder": "Ada Lovelace", "platform-apple": "on"})
    assert response.status_code == 303, text(response)
    got = api.get(f"/v1/passes/{response.headers['Location'].rsplit('/', 1)[1]}").get_json()
    assert got["holderName"] == "Ada Lovelace"
    assert got["fieldValues"] == {"holder": "Ada Lovelace"}


def test_issue_form_without_a_name_field_keeps_the_holder_name_input(
        dash: Dash, template_id: str) -> None:
    page = text(dash.get(f"/dashboard/test/passes/new?template={template_id}"))
    assert 'name="holder_name"' in page


def test_every_missing_value_is_shown_next_to_its_input(dash: Dash, api: Api,
                                                        starter_id: str) -> None:
    definition = api.get(f"/v1/templates/{starter_id}").get_json()["definition"]
    definition["config"]["fields"]["secondary"][0]["required"] = True
    definition["barcode"] = {"format": "qr", "perPass": True}
    assert api.patch(f"/v1/templates/{starter_id}", {
        "expectedRevision": 1, "definition": definition}).status_code == 200
    response = dash.post("/dashboard/test/passes", {"template_id": starter_id,
                                                    "platform-apple": "on"}, htmx=True)
    assert response.status_code == 422
    page = text(response)
    assert "Not issued: 3 values missing." in page
    assert 'novalidate' in page  # the browser sends the form; the server answers
    for name, message in (("fv-holder", "Name is required."),
                          ("fv-number", "Number is required."),
                          ("barcode_value", "Barcode value is required.")):
        assert f'<p class="field-error" id="err-{name}">{message}</p>' in page
        assert re.search(rf'name="{name}"[^>]*aria-invalid="true" '
                         rf'aria-describedby="err-{name}"', page), name
