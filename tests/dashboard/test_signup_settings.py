"""The template page's sign-up card: settings (a new revision), a new link, the A4 poster,
and the sign-up funnel on the Overview."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from werkzeug.datastructures import MultiDict

from tests.api.factories import template_body
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_data, text
from tests.signup.conftest import Visitor, path_of, signup_template

ROOT = Path(__file__).resolve().parents[2]


def _settings(dash: Dash, template_id: str, asks: dict[str, str], *, enabled: bool = True,
              consent: str = "") -> Any:
    data: MultiDict[str, str] = MultiDict([("consent", consent)])
    if enabled:
        data.add("enabled", "on")
    for key, ask in asks.items():
        data.add("keys", key)
        data.add(f"ask-{key}", ask)
    return dash.post(f"/dashboard/test/templates/{template_id}/signup", data)


def test_turning_sign_ups_on_from_the_dashboard(dash: Dash, api: Api, client: Any) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    page = text(dash.get(f"/dashboard/test/templates/{template['id']}"))
    assert 'id="signup"' in page and 'id="signup-link"' not in page
    response = _settings(dash, template["id"], {
        "holderName": "optional", "holderEmail": "required", "member": "required",
        "level": "off"}, consent="I agree.")
    assert response.status_code == 303
    saved = api.get(f"/v1/templates/{template['id']}").get_json()
    assert saved["revision"] == 2
    assert saved["definition"]["enrollment"] == {
        "enabled": True, "fields": [{"key": "holderName", "required": False},
                                    {"key": "holderEmail", "required": True},
                                    {"key": "member", "required": True}],
        "consent": "I agree."}
    page = text(dash.get(f"/dashboard/test/templates/{template['id']}"))
    assert saved["enrollmentUrl"] in page and "Print A4 poster" in page
    assert client.get(path_of(saved)).status_code == 200


def test_the_designer_keeps_the_sign_up_settings(dash: Dash, api: Api) -> None:
    template = signup_template(api)
    form = form_data(text(dash.get(f"/dashboard/test/templates/{template['id']}")),
                     "design-form")
    form["description"] = "Gym membership 2027"
    saved = dash.post(f"/dashboard/test/templates/{template['id']}", form, htmx=True,
                      header=True)
    assert saved.status_code in (200, 204, 303), text(saved)
    after = api.get(f"/v1/templates/{template['id']}").get_json()
    assert after["revision"] == 2
    assert after["definition"]["enrollment"] == template["definition"]["enrollment"]
    assert after["enrollmentUrl"] == template["enrollmentUrl"]


def test_refused_settings_are_said_and_change_nothing(dash: Dash, api: Api) -> None:
    template = signup_template(api)
    response = _settings(dash, template["id"], {"holderName": "required",
                                                "holderEmail": "off", "member": "required"})
    assert response.status_code == 303
    page = text(dash.get(response.headers["Location"]))
    assert "Sign-up page: enrollment.fields must include" in page
    assert api.get(f"/v1/templates/{template['id']}").get_json()["revision"] == 1


def test_turning_off_closes_the_page(dash: Dash, api: Api, client: Any) -> None:
    template = signup_template(api)
    _settings(dash, template["id"], {"holderEmail": "required", "member": "required"},
              enabled=False)
    assert client.get(path_of(template)).status_code == 410


def test_a_new_link_closes_the_old_one(dash: Dash, api: Api, client: Any) -> None:
    template = signup_template(api)
    response = dash.post(f"/dashboard/test/templates/{template['id']}/signup/new-link")
    assert response.status_code == 303
    fresh = api.get(f"/v1/templates/{template['id']}").get_json()
    assert fresh["enrollmentUrl"] != template["enrollmentUrl"]
    assert client.get(path_of(template)).status_code == 410
    assert client.get(path_of(fresh)).status_code == 200


def test_the_poster_is_an_a4_page_with_the_links_qr_code(dash: Dash, api: Api) -> None:
    template = signup_template(api)
    poster = dash.get(f"/dashboard/test/templates/{template['id']}/signup/poster")
    assert poster.status_code == 200
    html = text(poster)
    assert template["enrollmentUrl"] in html and "<svg" in html
    assert "QR code of the sign-up page" in html
    assert "Scan to sign up and get your pass" in html
    assert "dashboard/poster.css" in html
    css = (ROOT / "webapp/static/dashboard/poster.css").read_text()
    assert "@page { size: A4 portrait; margin: 0; }" in css
    plain = api.post("/v1/templates", template_body()).get_json()
    assert dash.get(f"/dashboard/test/templates/{plain['id']}/signup/poster"
                    ).status_code == 409


def test_another_organizations_template_is_not_found(other_dash: Dash, api: Api) -> None:
    template = signup_template(api)
    base = f"/dashboard/test/templates/{template['id']}"
    assert other_dash.get(f"{base}/signup/poster").status_code == 404
    assert other_dash.post(f"{base}/signup/new-link").status_code == 404
    assert other_dash.post(f"{base}/signup", {"enabled": "on"}).status_code == 404
    assert api.get(f"/v1/templates/{template['id']}").get_json()["enrollmentUrl"] == \
        template["enrollmentUrl"]


def test_the_overview_shows_the_sign_up_funnel(dash: Dash, api: Api, app: Any) -> None:
    template = signup_template(api)
    visitor = Visitor(app.test_client(), path_of(template))
    visitor.submit()
    page = text(dash.get("/dashboard/test/"))
    assert 'id="signup-funnel"' in page
    assert 'data-count="signupPageViews"' in page and 'data-count="signups"' in page
    assert 'data-count="signupsAdded"' in page
    assert "Sign-ups added" in page


def test_the_passes_list_names_and_filters_sign_ups(dash: Dash, api: Api, app: Any) -> None:
    template = signup_template(api)
    Visitor(app.test_client(), path_of(template)).submit()
    api.post("/v1/passes", {"templateId": template["id"], "fieldValues": {"member": "Bo"},
                            "holderName": "Bo Api"})
    page = text(dash.get("/dashboard/test/passes?source=enrollment"))
    assert "Ada Lovelace" in page and "Bo Api" not in page
    assert ">Sign-up page</td>" in page
    assert '<option value="enrollment" selected>' in page
