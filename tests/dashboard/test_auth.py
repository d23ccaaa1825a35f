"""Sign-in, sessions, CSRF, environments and organizations of the dashboard."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import update
from werkzeug.security import generate_password_hash

from tests.conftest import base_overrides
from tests.dashboard.conftest import Dash, csrf_token, sign_in, text
from webapp import create_app
from webapp.db.transaction import transaction
from webapp.extensions import db
from webapp.models import User

PAGES = ["/dashboard/test/passes", "/dashboard/live/passes", "/dashboard/test/passes/new",
         "/dashboard/test/keys", "/dashboard/test/members", "/dashboard/test/certificates",
         "/dashboard/test/templates", "/dashboard/test/templates/new"]


@pytest.mark.parametrize("path", PAGES)
def test_signed_out_visitor_is_sent_to_sign_in(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/dashboard/login?next={path}"


def test_signed_out_htmx_request_gets_hx_redirect(client: Any) -> None:
    response = client.get("/dashboard/test/passes?q=x", headers={
        "HX-Request": "true", "HX-Current-URL": "https://passes.example.test/dashboard/test/keys"})
    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == "/dashboard/login?next=/dashboard/test/keys"


@pytest.mark.parametrize("path", ["/dashboard/test/keys", "/dashboard/test/passes/pass_x/void",
                                  "/dashboard/test/templates/tmpl_x"])
def test_signed_out_post_never_acts(client: Any, path: str) -> None:
    token = csrf_token(client)
    response = client.post(path, data={"csrf_token": token, "name": "x"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/dashboard/login"


def test_sign_in_sets_a_hardened_session_cookie(client: Any, org: dict[str, Any]) -> None:
    token = csrf_token(client)
    response = client.post("/dashboard/login", data={
        "email": org["email"].upper(), "password": org["password"], "csrf_token": token})
    assert response.status_code == 303
    assert response.headers["Location"] == "/dashboard/test/"  # the Overview
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie
    assert client.get("/dashboard/test/passes").status_code == 200


def test_cookie_is_not_secure_on_plain_http(database: Any, database_url: str, tmp_path: Any
                                            ) -> None:
    app = create_app({**base_overrides(tmp_path, database_url),
                      "BASE_URL": "http://127.0.0.1:5000"})
    assert app.config["SESSION_COOKIE_SECURE"] is False
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True


@pytest.mark.parametrize("email_ok", [True, False])
def test_failed_sign_in_is_generic(client: Any, org: dict[str, Any], email_ok: bool) -> None:
    token = csrf_token(client)
    response = client.post("/dashboard/login", data={
        "email": org["email"] if email_ok else "nobody@acme.test", "password": "wrong!!!!",
        "csrf_token": token})
    assert response.status_code == 401
    assert "Incorrect email or password." in text(response)
    assert 'value="' + (org["email"] if email_ok else "nobody@acme.test") in text(response)
    assert client.get("/dashboard/test/passes").status_code == 303


def test_sign_in_without_csrf_token_is_rejected(client: Any, org: dict[str, Any]) -> None:
    response = client.post("/dashboard/login", data={"email": org["email"],
                                                     "password": org["password"]})
    assert response.status_code == 400
    assert "This form has expired" in text(response)
    assert client.get("/dashboard/test/passes").status_code == 303


def test_sign_in_goes_back_to_next_but_never_off_site(client: Any, org: dict[str, Any]) -> None:
    token = csrf_token(client)
    data = {"email": org["email"], "password": org["password"], "csrf_token": token}
    response = client.post("/dashboard/login?next=//evil.test/x", data=data)
    assert response.headers["Location"] == "/dashboard/test/"
    token = csrf_token(client, "/dashboard/test/keys")
    client.post("/dashboard/logout", data={"csrf_token": token})
    token = csrf_token(client)
    response = client.post("/dashboard/login", data={**data, "csrf_token": token,
                                                     "next": "/dashboard/live/keys"})
    assert response.headers["Location"] == "/dashboard/live/keys"


def _strict(database: Any, database_url: str, tmp_path: Any) -> Flask:
    """An app that allows 3 failed sign-ins a minute per account and 5 per client IP."""
    return create_app({**base_overrides(tmp_path, database_url),
                       "DASHBOARD_LOGIN_LIMIT": "3/minute",
                       "DASHBOARD_LOGIN_IP_LIMIT": "5/minute"})


def _try(client: Any, email: str, password: str = "nope nope", ip: str = "10.0.0.1") -> Any:
    return client.post("/dashboard/login", data={
        "email": email, "password": password, "csrf_token": csrf_token(client)},
        environ_base={"REMOTE_ADDR": ip})


def test_failed_sign_ins_are_limited_per_account(database: Any, database_url: str,
                                                 tmp_path: Any) -> None:
    client = _strict(database, database_url, tmp_path).test_client()
    assert [_try(client, "a@b.test").status_code for _ in range(3)] == [401, 401, 401]
    response = _try(client, " A@B.test ")  # the same account, however it is typed
    assert response.status_code == 429
    page = text(response)
    assert re.search(r"Too many failed attempts\. Wait (\d+ seconds|1 minute) and try "
                     r"again\.", page), page
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert _try(client, "c@d.test").status_code == 401  # another account: its own count
    assert client.get("/dashboard/login").status_code == 200  # only attempts count


def test_failed_sign_ins_are_limited_per_address_higher(database: Any, database_url: str,
                                                        tmp_path: Any) -> None:
    client = _strict(database, database_url, tmp_path).test_client()
    statuses = [_try(client, f"person{n}@b.test").status_code for n in range(6)]
    assert statuses == [401] * 5 + [429]
    assert _try(client, "person9@b.test", ip="10.0.0.2").status_code == 401


def test_successful_sign_ins_are_not_counted(database: Any, database_url: str,
                                             tmp_path: Any) -> None:
    """A venue's staff signing in from one address lock nobody out."""
    app = _strict(database, database_url, tmp_path)
    with app.app_context():
        from webapp.services.accounts import organizations

        created = organizations.create("Venue", "door@venue.test", "correct horse battery")
    for _ in range(8):  # more than both limits
        response = _try(app.test_client(), created.email, created.password)
        assert response.status_code == 303
    client = app.test_client()
    assert [_try(client, created.email).status_code for _ in range(3)] == [401] * 3
    assert _try(client, created.email, created.password).status_code == 429


def test_sign_out(dash: Dash) -> None:
    assert dash.client.get("/dashboard/logout").status_code == 405
    response = dash.post("/dashboard/logout")
    assert response.status_code == 303
    assert dash.get("/dashboard/test/keys").status_code == 303


def test_password_change_ends_existing_sessions(app: Flask, dash: Dash,
                                                org: dict[str, Any]) -> None:
    with app.app_context(), transaction() as session:
        session.execute(update(User).where(User.email == org["email"]).values(
            password_hash=generate_password_hash("a brand new password")))
    assert dash.get("/dashboard/test/keys").status_code == 303


def test_csrf_is_required_on_every_dashboard_write(dash: Dash) -> None:
    response = dash.post("/dashboard/test/keys", {"name": "x"}, csrf=False)
    assert response.status_code == 400
    assert "security token" in text(response)
    response = dash.post("/dashboard/test/keys", {"name": "x"}, csrf=False, htmx=True,
                         headers={"X-CSRFToken": "forged"})
    assert response.status_code == 400
    assert dash.post("/dashboard/test/keys", {"name": "x"}, header=True, htmx=True
                     ).status_code == 201


def test_api_and_wallet_doors_are_not_csrf_checked(app: Flask, dash: Dash,
                                                   org: dict[str, Any]) -> None:
    """A signed-in browser session does not make /v1 or /wallet demand a CSRF token."""
    response = dash.client.post("/v1/templates", json={"name": "x", "type": "generic"},
                                headers={"Authorization": f"Bearer {org['keys']['test']}",
                                         "Idempotency-Key": "k1"})
    assert response.status_code == 400  # validated by the API: the definition is missing
    assert response.get_json()["error"]["param"] == "definition"
    response = dash.client.post("/wallet/apple/v1/log", json={"logs": ["hello"]})
    assert response.status_code != 400 or "security token" not in text(response)
    assert app.config["WTF_CSRF_CHECK_DEFAULT"] is False


def test_environment_is_in_the_url_and_live_looks_different(dash: Dash) -> None:
    test_page, live_page = text(dash.get("/dashboard/test/keys")), text(
        dash.get("/dashboard/live/keys"))
    assert 'class="env-test"' in test_page and "<strong>TEST</strong>" in test_page
    assert 'class="env-live"' in live_page and "<strong>LIVE</strong>" in live_page
    assert 'href="/dashboard/live/keys" class="live "' in test_page
    assert dash.get("/dashboard/prod/keys").status_code == 404
    assert dash.get("/dashboard/").headers["Location"] == "/dashboard/test/"


def test_a_member_of_two_organizations_switches(app: Flask, client: Any, org: dict[str, Any],
                                                other_org: dict[str, Any]) -> None:
    from webapp.services.accounts import members
    from webapp.services.context import Context

    with app.app_context():
        owner = Context(other_org["id"], "test", "dashboard",
                        user_id=_user_id(other_org["email"]))
        members.add(owner, org["email"], "")
    dash = sign_in(client, org["email"], org["password"])
    page = text(dash.get("/dashboard/test/keys"))
    assert 'id="orgpick"' in page and "Other Co" in page and "Acme Tickets" in page
    response = dash.post("/dashboard/test/organization", {"organization_id": other_org["id"]})
    assert response.status_code == 303
    assert f"<option value=\"{other_org['id']}\" selected>" in text(
        dash.get("/dashboard/test/keys"))
    assert dash.post("/dashboard/test/organization",
                     {"organization_id": "org_notmine"}).status_code == 404


def _user_id(email: str) -> str:
    from sqlalchemy import select

    return db.session.scalar(select(User.id).where(User.email == email))
