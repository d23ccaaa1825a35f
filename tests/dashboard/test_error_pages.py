"""Error answers under /dashboard are the dashboard's own pages: its layout (the navigation
when signed in, the sign-in card when not), a clear message and a way back, with the right
status; HTMX gets only the error card. /v1 and other addresses keep their own shapes."""

from __future__ import annotations

import re
from typing import Any, NoReturn

import pytest
from flask import Flask, abort
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError

from tests.dashboard.conftest import Dash, sign_in, text
from tests.support.members import PASSWORD, add_member

BACK = '<a class="btn primary" href="/dashboard/test/passes">Back to the dashboard</a>'
SIGN_IN = '<a class="btn primary" href="/dashboard/login">Sign in</a>'


def assert_signed_in_page(response: Any, status: int, title: str) -> str:
    """The full dashboard layout: title, environment bar, navigation, the card, a way back."""
    body = text(response)
    assert response.status_code == status, body
    assert response.mimetype == "text/html"
    assert f"<title>{title} · Acme Tickets</title>" in body
    assert '<nav class="sidenav" aria-label="Sections">' in body
    assert re.search(r'<li><a href="/dashboard/test/keys" [^>]*>API keys</a></li>', body)
    assert '<section class="card error-card" role="alert">' in body
    assert f"<h1>{title}</h1>" in body
    assert BACK in body
    assert SIGN_IN not in body
    return body


def assert_signed_out_page(response: Any, status: int, title: str) -> str:
    """The sign-in card's layout (no navigation), the card, a link to sign in."""
    body = text(response)
    assert response.status_code == status, body
    assert response.mimetype == "text/html"
    assert f"<title>{title} · Pass service</title>" in body
    assert '<body class="login-page"><main class="login-box">' in body
    assert "sidenav" not in body
    assert f"<h1>{title}</h1>" in body
    assert SIGN_IN in body
    assert BACK not in body
    return body


def _raise(exc: BaseException) -> Any:
    def view(**kwargs: Any) -> NoReturn:
        raise exc
    return view


def _abort(status: int) -> Any:
    def view(**kwargs: Any) -> NoReturn:
        abort(status)
    return view


# 404: an address that matches no route (the blueprint's handlers never see it)

@pytest.mark.parametrize("path", ["/dashboard/anything-unknown", "/dashboard/test/nope/deeper",
                                  "/dashboard/prod/keys"])
def test_unknown_address_signed_in(dash: Dash, path: str) -> None:
    body = assert_signed_in_page(dash.get(path), 404, "Page not found")
    assert "There is no dashboard page at this address." in body
    assert f"<code>{path}</code>" in body


def test_unknown_address_signed_out(client: FlaskClient) -> None:
    body = assert_signed_out_page(client.get("/dashboard/anything-unknown"), 404,
                                  "Page not found")
    assert "<code>/dashboard/anything-unknown</code>" in body


def test_unknown_address_in_live_keeps_live(dash: Dash) -> None:
    response = dash.get("/dashboard/live/anything-unknown")
    assert response.status_code == 404
    body = text(response)
    assert 'class="env-live"' in body and "<strong>LIVE</strong>" in body
    assert '<a class="btn primary" href="/dashboard/live/passes">Back to the dashboard</a>' \
        in body
    assert '<li><a href="/dashboard/live/keys" >API keys</a></li>' in body


@pytest.mark.parametrize("signed_in", [True, False])
def test_the_address_is_escaped(client: FlaskClient, org: dict[str, Any],
                                signed_in: bool) -> None:
    if signed_in:
        sign_in(client, org["email"], org["password"])
    response = client.get('/dashboard/<script>alert(1)</script>"x')
    assert response.status_code == 404
    body = text(response)
    assert "<script>alert(1)" not in body
    assert "<code>/dashboard/&lt;script&gt;alert(1)&lt;/script&gt;&#34;x</code>" in body


def test_a_view_that_aborts_404_is_the_dashboard_page(app: Flask, dash: Dash,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.view_functions, "dashboard.keys_index", _abort(404))
    assert_signed_in_page(dash.get("/dashboard/test/keys"), 404, "Page not found")


def test_a_missing_object_is_the_dashboard_page(dash: Dash) -> None:
    response = dash.get("/dashboard/test/templates/tpl_doesnotexist")
    assert_signed_in_page(response, 404, "Not found")


# 405

def test_wrong_method_signed_in(dash: Dash) -> None:
    response = dash.get("/dashboard/logout")
    body = assert_signed_in_page(response, 405, "Not possible here")
    assert "<code>GET /dashboard/logout</code>" in body
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"POST"}


def test_wrong_method_signed_out(client: FlaskClient) -> None:
    response = client.get("/dashboard/logout")
    assert_signed_out_page(response, 405, "Not possible here")
    assert "POST" in response.headers["Allow"]


# 403

def test_member_who_is_not_an_owner_gets_403_page(app: Flask, dash: Dash,
                                                  org: dict[str, Any]) -> None:
    add_member(app, org["id"], "member@acme.test")
    member = sign_in(app.test_client(), "member@acme.test", PASSWORD)
    response = member.post("/dashboard/test/members", {"email": "x@acme.test"})
    body = assert_signed_in_page(response, 403, "Only an owner can do this")
    assert "Only an owner of the organization can manage members." in body


def test_forbidden_signed_in(app: Flask, dash: Dash, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.view_functions, "dashboard.keys_index", _abort(403))
    body = assert_signed_in_page(dash.get("/dashboard/test/keys"), 403, "Not allowed")
    assert "does not allow this" in body


def test_forbidden_signed_out(app: Flask, client: FlaskClient,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.view_functions, "dashboard.login", _abort(403))
    assert_signed_out_page(client.get("/dashboard/login"), 403, "Not allowed")


# 500

def test_server_error_signed_in(app: Flask, dash: Dash, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.view_functions, "dashboard.keys_index",
                        _raise(RuntimeError("boom <b>secret</b>")))
    response = dash.get("/dashboard/test/keys")
    body = assert_signed_in_page(response, 500, "Something went wrong")
    assert f"Reference: <code>{response.headers['Request-Id']}</code>" in body
    assert "boom" not in body and "secret" not in body


def test_server_error_signed_out(app: Flask, client: FlaskClient,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.view_functions, "dashboard.login", _raise(RuntimeError("boom")))
    response = client.get("/dashboard/login")
    body = assert_signed_out_page(response, 500, "Something went wrong")
    assert f"Reference: <code>{response.headers['Request-Id']}</code>" in body
    assert "boom" not in body


def test_database_down_is_a_503(app: Flask, dash: Dash,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The user is not looked up again (the database is down); one already known keeps the
    navigation."""
    monkeypatch.setitem(app.view_functions, "dashboard.keys_index",
                        _raise(OperationalError("SELECT 1", {}, Exception("down"))))
    body = assert_signed_in_page(dash.get("/dashboard/test/keys"), 503,
                                 "Temporarily unavailable")
    assert "cannot reach its database" in body


def test_database_down_before_the_user_is_known(app: Flask, client: FlaskClient,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.view_functions, "dashboard.login",
                        _raise(OperationalError("SELECT 1", {}, Exception("down"))))
    assert_signed_out_page(client.get("/dashboard/login"), 503, "Temporarily unavailable")


def test_database_down_while_the_user_is_looked_up(dash: Dash,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The error page does not try the database again: the signed-out layout."""
    import webapp.dashboard
    from webapp.dashboard import errors

    def down() -> None:
        raise OperationalError("SELECT 1", {}, Exception("down"))

    monkeypatch.setattr(webapp.dashboard, "enter", down)
    monkeypatch.setattr(errors, "_enter_if_signed_in",
                        lambda: pytest.fail("the error page looked the user up again"))
    assert_signed_out_page(dash.get("/dashboard/test/keys"), 503, "Temporarily unavailable")


# 400: the CSRF check

def test_csrf_failure_signed_in(dash: Dash) -> None:
    response = dash.post("/dashboard/test/keys", {"name": "x"}, csrf=False)
    body = assert_signed_in_page(response, 400, "This form has expired")
    assert "security token" in body


def test_csrf_failure_signed_out(client: FlaskClient, org: dict[str, Any]) -> None:
    response = client.post("/dashboard/login", data={"email": org["email"],
                                                     "password": org["password"]})
    body = assert_signed_out_page(response, 400, "This form has expired")
    assert "security token" in body


# HTMX: only the card (the toast reads its message)

@pytest.mark.parametrize(("make", "status", "title"), [
    (lambda d: d.get("/dashboard/nope", headers={"HX-Request": "true"}), 404,
     "Page not found"),
    (lambda d: d.client.get("/dashboard/logout", headers={"HX-Request": "true"}), 405,
     "Not possible here"),
    (lambda d: d.post("/dashboard/test/keys", {"name": "x"}, csrf=False, htmx=True), 400,
     "This form has expired"),
])
def test_htmx_gets_the_card_only(dash: Dash, make: Any, status: int, title: str) -> None:
    response = make(dash)
    body = text(response)
    assert response.status_code == status
    assert body.lstrip().startswith('<section class="card error-card" role="alert">')
    assert f"<h1>{title}</h1>" in body
    assert "<html" not in body and "sidenav" not in body
    assert BACK in body
    assert "HX-Request" in response.headers["Vary"]


def test_htmx_server_error_is_the_card(app: Flask, dash: Dash,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.view_functions, "dashboard.keys_index", _raise(RuntimeError("x")))
    response = dash.get("/dashboard/test/keys", headers={"HX-Request": "true"})
    assert response.status_code == 500
    assert text(response).lstrip().startswith('<section class="card error-card"')


# Other doors keep their own shapes

def test_api_and_other_addresses_keep_their_error_shapes(dash: Dash) -> None:
    response = dash.get("/v1/nope")
    assert response.status_code == 404
    assert response.get_json()["error"]["type"] == "not_found_error"
    for path in ("/dashboardx", "/nope"):
        response = dash.get(path)
        assert response.status_code == 404
        assert "<h1>404 Not Found</h1>" in text(response)
        assert "error-card" not in text(response)
