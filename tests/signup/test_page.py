"""`GET/POST /join/<slug>`: the form, issuing the pass (303 to its page), bad input, CSRF,
the honeypot, closed and unknown pages, the rate limit, the language and the funnel."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.conftest import BASE_URL, Api, app_with
from tests.signup.conftest import ENROLLMENT, Visitor, path_of, signup_template


def _passes(api: Api, **query: str) -> list[dict[str, Any]]:
    suffix = "&".join(f"{k}={v}" for k, v in query.items())
    return list(api.get(f"/v1/passes?{suffix}").get_json()["data"])


def test_the_form_names_inputs_by_their_keys(visitor: Visitor) -> None:
    page = visitor.open()
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'name="holderName"' in html and 'autocomplete="name"' in html
    assert 'name="holderEmail"' in html and 'type="email"' in html
    assert 'autocomplete="email"' in html
    assert 'name="member"' in html and 'name="level"' in html
    assert 'type="checkbox" id="consent" name="consent"' in html
    assert "I agree to the club&#39;s rules." in html
    assert 'name="leave_empty"' in html and 'name="csrf_token"' in html
    assert ":root{--brand-bg:#112233;--brand-fg:#ffffff}" in html  # the programme's colours
    csp = page.headers["Content-Security-Policy"]
    assert "form-action 'self'" in csp and "script-src" not in csp
    assert page.headers["Cache-Control"] == "no-store"
    assert page.headers["Content-Language"] == "en"


def test_the_page_speaks_the_visitors_language(app: Flask, template: dict[str, Any]) -> None:
    page = Visitor(app.test_client(), path_of(template), "de-AT, en;q=0.5").open()
    html = page.get_data(as_text=True)
    assert page.headers["Content-Language"] == "de"
    assert 'lang="de"' in html and "E-Mail" in html


def test_sign_up_issues_the_pass_and_answers_303_to_its_page(api: Api, visitor: Visitor
                                                             ) -> None:
    response = visitor.submit(level="Gold")
    assert response.status_code == 303
    [item] = _passes(api, source="enrollment")
    assert response.headers["Location"] == item["distributionUrl"]
    assert item["distributionUrl"].startswith(f"{BASE_URL}/p/")
    full = api.get(f"/v1/passes/{item['id']}").get_json()
    assert (full["source"], full["holderName"], full["holderEmail"]) == (
        "enrollment", "Ada Lovelace", "ada@example.com")
    assert full["fieldValues"] == {"member": "Ada", "level": "Gold"}
    assert full["environment"] == "test"


def test_bad_input_gets_the_form_again_with_what_was_typed(api: Api, visitor: Visitor
                                                           ) -> None:
    response = visitor.submit(holderName='<script>alert("x")</script>', holderEmail="nope",
                              member="", consent=None)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "<script>alert" not in html
    assert 'value="&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"' in html
    assert 'value="nope"' in html
    assert "Enter an email address like name@example.com." in html
    assert "Please fill this in." in html
    assert "Please tick this box to sign up." in html
    assert html.count('aria-invalid="true"') == 3
    assert _passes(api) == []


def test_too_long_and_control_characters_are_problems(api: Api, visitor: Visitor) -> None:
    response = visitor.submit(holderName="x" * 201, member="a\x00b")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "This is too long." in html
    assert "This contains characters that cannot be used." in html
    assert _passes(api) == []


def test_a_value_the_field_refuses_is_shown_beside_it(api: Api, app: Flask) -> None:
    definition_fields = {"primary": [{"key": "member", "label": "Member", "binding": "perPass",
                                      "required": True}],
                         "secondary": [{"key": "visits", "label": "Visits",
                                        "binding": "perPass", "format": "number"}]}
    template = signup_template(api, {**ENROLLMENT, "fields": [
        *ENROLLMENT["fields"][:3], {"key": "visits", "required": False}]},
        config={"fields": definition_fields})
    visitor = Visitor(app.test_client(), path_of(template))
    response = visitor.submit(visits="many")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'value="many"' in html and "Please check this value." in html
    assert 'inputmode="decimal"' in html
    assert _passes(api) == []
    assert visitor.submit(visits="12").status_code == 303


def test_without_the_csrf_token_nothing_is_made(api: Api, visitor: Visitor) -> None:
    visitor.open()
    response = visitor.submit(token="")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "This form has expired. Please send it again." in html
    assert 'value="ada@example.com"' in html  # kept
    assert visitor.submit(token="forged").status_code == 400
    assert _passes(api) == []


def test_the_honeypot_makes_nothing(api: Api, visitor: Visitor) -> None:
    response = visitor.submit(leave_empty="http://spam.example")
    assert response.status_code == 200
    assert "Check your email" in response.get_data(as_text=True)
    assert _passes(api) == []


def test_closed_pages_say_so_in_the_visitors_language(api: Api, app: Flask,
                                                      template: dict[str, Any]) -> None:
    path = path_of(template)
    off = api.patch(f"/v1/templates/{template['id']}", {
        "expectedRevision": 1,
        "definition": {**template["definition"], "enrollment": {**ENROLLMENT,
                                                                "enabled": False}}})
    assert off.status_code == 200
    visitor = Visitor(app.test_client(), path, "fr")
    page = visitor.open()
    assert page.status_code == 410
    html = page.get_data(as_text=True)
    assert page.headers["Content-Language"] == "fr"
    assert "Les inscriptions sont closes" in html and "Acme Gym" in html
    assert "<form" not in html
    assert visitor.submit(token="x").status_code == 410


def test_an_archived_template_is_closed(api: Api, visitor: Visitor,
                                        template: dict[str, Any]) -> None:
    token = visitor.token()
    api.delete(f"/v1/templates/{template['id']}")
    assert visitor.open().status_code == 410
    response = visitor.submit(token=token)
    assert response.status_code == 410
    assert "Sign-ups are closed" in response.get_data(as_text=True)
    assert _passes(api) == []


def test_an_old_link_is_closed_and_an_unknown_one_not_found(api: Api, client: Any,
                                                            visitor: Visitor,
                                                            template: dict[str, Any]) -> None:
    token = visitor.token()
    api.post(f"/v1/templates/{template['id']}/enrollment-link")
    assert visitor.submit(token=token).status_code == 410
    unknown = client.get("/join/nosuchslug000", headers={"Accept-Language": "es"})
    assert unknown.status_code == 404
    assert "Página de inscripción no encontrada" in unknown.get_data(as_text=True)
    assert client.get("/join/" + "x" * 300).status_code == 404
    assert _passes(api) == []


def test_the_other_environment_has_its_own_page(live_api: Api, api: Api, app: Flask,
                                                template: dict[str, Any]) -> None:
    live = live_api.get(f"/v1/templates/{template['id']}").get_json()
    assert Visitor(app.test_client(), path_of(live)).open().status_code == 200
    assert _passes(api) == []


def test_sign_ups_have_a_per_ip_limit(database: dict[str, Any], database_url: str,
                                      tmp_path: Any) -> None:
    for app in app_with(database, database_url, tmp_path, {"RATE_LIMIT_SIGNUP": 2}):
        from tests.conftest import _organization

        org = _organization(app, "Acme", "owner")
        api = Api(app.test_client(), org["keys"]["test"])
        visitor = Visitor(app.test_client(), path_of(signup_template(api)))
        for n in range(2):
            assert visitor.submit(holderEmail=f"p{n}@example.com").status_code == 303
        blocked = visitor.submit(holderEmail="p3@example.com")
        assert blocked.status_code == 429
        assert visitor.open().status_code == 200  # looking is not limited by it
        assert len(_passes(api)) == 2


def test_the_funnel_counts_page_views_and_sign_ups(api: Api, visitor: Visitor) -> None:
    visitor.open()
    visitor.submit()  # a view (its token) and a sign-up
    visitor.submit(holderEmail="bad")  # a view, no sign-up
    totals = api.get("/v1/insights").get_json()["totals"]
    assert (totals["signupPageViews"], totals["signups"], totals["signupsAdded"]) == (3, 1, 0)
    assert totals["issued"] == 1


def test_head_is_no_view_and_the_session_cookie_is_safe(api: Api, visitor: Visitor) -> None:
    head = visitor.client.head(visitor.path)
    assert head.status_code == 200
    cookie = head.headers["Set-Cookie"]  # the CSRF token's session
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert api.get("/v1/insights").get_json()["totals"]["signupPageViews"] == 0
    assert visitor.open().status_code == 200
    assert api.get("/v1/insights").get_json()["totals"]["signupPageViews"] == 1


def test_a_live_link_without_live_credentials_says_paused(live_api: Api, api: Api, app: Flask,
                                                         template: dict[str, Any]) -> None:
    live = live_api.get(f"/v1/templates/{template['id']}").get_json()
    visitor = Visitor(app.test_client(), path_of(live), "es")
    response = visitor.submit()
    assert response.status_code == 503
    assert "Las inscripciones están en pausa" in response.get_data(as_text=True)
    assert live_api.get("/v1/passes").get_json()["data"] == []
    assert visitor.submit().status_code == 503  # nothing was claimed: the address is free


def test_the_templates_own_translations_are_used(api: Api, app: Flask) -> None:
    template = signup_template(api, defaultLanguage="en", translations={"de": {
        "description": "Mitgliedschaft im Fitnessstudio", "organizationName": "Acme Fitness",
        "fields": {"member": {"label": "Mitglied"}}}})
    html = Visitor(app.test_client(), path_of(template), "de-DE").open().get_data(
        as_text=True)
    assert "Mitgliedschaft im Fitnessstudio" in html and "Acme Fitness" in html
    assert "Mitglied" in html and ">Member" not in html
