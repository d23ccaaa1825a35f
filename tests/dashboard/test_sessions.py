"""Dashboard sessions end on the server: sign-out, a new password and removal from an
organization end every session of that user (a copied cookie too), and sessions expire."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask_login.utils import encode_cookie
from sqlalchemy import func, select

from tests.conftest import _organization, app_with
from tests.dashboard.conftest import Dash, csrf_token, sign_in, text
from webapp import clock, config
from webapp.extensions import db
from webapp.models import ApiKey, User
from webapp.services.accounts import members
from webapp.services.context import Context

KEYS = "/dashboard/test/keys"
SIGN_IN_AGAIN = f"/dashboard/login?next={KEYS}"
START = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)


def copy_of(app: Flask, dash: Dash) -> Dash:
    """Another browser holding a copy of `dash`'s session cookie (and so its CSRF token)."""
    name = app.config["SESSION_COOKIE_NAME"]
    cookie = dash.client.get_cookie(name)
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie(name, cookie.value)
    return Dash(thief, dash.token)


def reloaded(dash: Dash) -> Dash:
    """`dash` with the CSRF token its session has now (sign-out cleared the old one)."""
    return Dash(dash.client, csrf_token(dash.client))


def session_of(app: Flask, dash: Dash) -> dict[str, Any]:
    """What `dash`'s signed session cookie holds."""
    cookie = dash.client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    assert cookie is not None
    serializer = app.session_interface.get_signing_serializer(app)
    return serializer.loads(cookie.value)


def keys_named(app: Flask, name: str) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(ApiKey).where(
            ApiKey.name == name)) or 0


def assert_signed_out(app: Flask, dash: Dash) -> None:
    """A page sends `dash` to sign in, and a write (creating an API key) does not happen."""
    response = dash.get(KEYS)
    assert response.status_code == 303
    assert response.headers["Location"] == SIGN_IN_AGAIN
    response = dash.post(KEYS, {"name": "stolen", "environment": "live"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/dashboard/login"
    assert keys_named(app, "stolen") == 0


def assert_signed_in(dash: Dash) -> None:
    response = dash.get(KEYS)
    assert response.status_code == 200, response.headers.get("Location")


def user_id(app: Flask, email: str) -> str:
    with app.app_context():
        return db.session.scalar(select(User.id).where(User.email == email))


class Clock:
    """The app's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = START
        clock.set_now(lambda: self.now)

    def forward(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def frozen(app: Flask) -> Clock:
    return Clock()  # the app fixture sets the clock back


@pytest.fixture
def strict_app(database: Any, database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """An app with small limits: 3 password attempts a minute, sessions of 60 s idle and
    150 s in all."""
    yield from app_with(database, database_url, tmp_path, {
        "DASHBOARD_LOGIN_LIMIT": "3/minute", "DASHBOARD_SESSION_IDLE_SECONDS": 60,
        "DASHBOARD_SESSION_MAX_SECONDS": 150})


# -- sign-out ------------------------------------------------------------------------------


def test_a_copied_cookie_stops_working_at_sign_out(app: Flask, dash: Dash) -> None:
    thief = copy_of(app, dash)
    assert_signed_in(thief)  # the copy works while the session lasts
    response = dash.post("/dashboard/logout")
    assert response.status_code == 303
    assert response.headers["Location"] == "/dashboard/login"
    assert_signed_out(app, thief)
    assert_signed_out(app, reloaded(dash))


def test_sign_out_ends_the_users_sessions_on_other_devices(app: Flask, dash: Dash,
                                                          org: dict[str, Any],
                                                          other_dash: Dash) -> None:
    phone = sign_in(app.test_client(), org["email"], org["password"])
    dash.post("/dashboard/logout")
    assert_signed_out(app, phone)
    assert_signed_in(other_dash)  # another user is untouched
    again = sign_in(app.test_client(), org["email"], org["password"])
    assert_signed_in(again)


def test_a_remember_cookie_never_signs_in(app: Flask, dash: Dash, org: dict[str, Any]) -> None:
    """No remember cookie is ever set; one made with the app's key is refused anyway, and
    sign-out deletes it."""
    assert dash.client.get_cookie("remember_token") is None
    session_id = session_of(app, dash)["_user_id"]
    assert session_id.startswith(user_id(app, org["email"]) + ":")
    with app.test_request_context():
        remember = encode_cookie(session_id)  # signed with the app's SECRET_KEY
    browser = app.test_client()
    browser.set_cookie("remember_token", remember)
    assert browser.get(KEYS).headers.get("Location") == SIGN_IN_AGAIN
    assert_signed_out(app, reloaded(Dash(browser, "")))  # with a session that has a CSRF token

    dash.client.set_cookie("remember_token", remember)
    response = dash.post("/dashboard/logout")
    assert response.status_code == 303
    deleted = [c for c in response.headers.getlist("Set-Cookie")
               if c.startswith("remember_token=;")]
    assert len(deleted) == 1 and "Expires=Thu, 01 Jan 1970" in deleted[0]


# -- a new password ------------------------------------------------------------------------


def change_password(dash: Dash, current: str, new: str, confirm: str | None = None) -> Any:
    return dash.post("/dashboard/test/account", {
        "current_password": current, "new_password": new,
        "confirm_password": new if confirm is None else confirm})


def test_a_new_password_ends_the_other_sessions(app: Flask, dash: Dash, org: dict[str, Any],
                                                other_dash: Dash) -> None:
    thief = copy_of(app, dash)
    laptop = sign_in(app.test_client(), org["email"], org["password"])
    page = text(laptop.get("/dashboard/test/account"))
    assert 'name="current_password"' in page and 'autocomplete="new-password"' in page
    assert 'href="/dashboard/test/account"' in text(laptop.get(KEYS))  # reached from the header

    response = change_password(laptop, org["password"], "a brand new password")
    assert response.status_code == 200
    assert "Your password is changed. Every other session of yours is signed out." in \
        text(response)
    assert_signed_out(app, thief)
    assert_signed_out(app, dash)
    assert_signed_in(laptop)  # the session that changed it goes on
    assert laptop.post(KEYS, {"name": "mine", "environment": "test"}).status_code == 201
    assert_signed_in(other_dash)

    browser = app.test_client()
    token = csrf_token(browser)
    old = browser.post("/dashboard/login", data={
        "email": org["email"], "password": org["password"], "csrf_token": token})
    assert old.status_code == 401
    assert_signed_in(sign_in(browser, org["email"], "a brand new password"))


@pytest.mark.parametrize(("current", "new", "confirm", "field", "message"), [
    ("wrong password", "a brand new password", None, "current_password",
     "The current password is not correct."),
    (None, "short", None, "new_password", "The new password needs at least 8 characters."),
    (None, "a brand new password", "a brand new passwort", "confirm_password",
     "The two new passwords differ."),
])
def test_a_refused_password_change_changes_nothing(app: Flask, dash: Dash,
                                                   org: dict[str, Any], current: str | None,
                                                   new: str, confirm: str | None, field: str,
                                                   message: str) -> None:
    thief = copy_of(app, dash)
    response = change_password(dash, current or org["password"], new, confirm)
    assert response.status_code == 422
    assert f'<p class="field-error" id="err-{field}">{message}</p>' in text(response)
    assert_signed_in(thief)
    assert_signed_in(sign_in(app.test_client(), org["email"], org["password"]))


def test_password_changes_that_work_are_not_counted(strict_app: Flask) -> None:
    app = strict_app
    org = _organization(app, "Acme Tickets", "owner")
    dash = sign_in(app.test_client(), org["email"], org["password"])
    passwords = [org["password"], *(f"new password {n}" for n in range(5))]
    for old, new in itertools.pairwise(passwords):  # 5 changes, limit 3
        assert change_password(dash, old, new).status_code == 200


def test_password_guesses_from_a_session_are_limited(strict_app: Flask) -> None:
    """A stolen session cannot be used to find the password by trying current ones."""
    app = strict_app
    org = _organization(app, "Acme Tickets", "owner")
    dash = sign_in(app.test_client(), org["email"], org["password"])
    assert [change_password(dash, "guess one!", "a brand new password").status_code
            for _ in range(3)] == [422, 422, 422]
    response = change_password(dash, org["password"], "a brand new password")
    assert response.status_code == 429
    assert re.search(r"Too many failed attempts\. Wait (\d+ seconds|1 minute) and try again\.",
                     text(response))
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert_signed_in(dash)  # not changed, not signed out
    assert_signed_in(sign_in(app.test_client(), org["email"], org["password"]))


# -- removal from an organization ----------------------------------------------------------


def test_removal_ends_the_members_sessions_and_no_one_elses(app: Flask, dash: Dash,
                                                            org: dict[str, Any],
                                                            other_org: dict[str, Any]) -> None:
    with app.app_context():
        owner = Context(org["id"], "test", "dashboard", user_id=user_id(app, org["email"]))
        removed = members.add(owner, "leaving@acme.test", "leaving password").member
        members.add(owner, "staying@acme.test", "staying password")
        # Also in another organization: a session there goes on (test_invitations.py); the
        # session below acts in Acme, the first by name.
        members.add(Context(other_org["id"], "test", "dashboard",
                            user_id=user_id(app, other_org["email"])), "leaving@acme.test", "")
    leaving = sign_in(app.test_client(), "leaving@acme.test", "leaving password")
    thief = copy_of(app, leaving)
    staying = sign_in(app.test_client(), "staying@acme.test", "staying password")
    other_owner = sign_in(app.test_client(), other_org["email"], other_org["password"])

    response = dash.post(f"/dashboard/test/members/{removed.id}/remove")
    assert response.status_code == 200
    assert "The member was removed." in text(response)
    assert_signed_out(app, leaving)
    assert_signed_out(app, thief)
    for still in (dash, staying, other_owner):
        assert_signed_in(still)
    back = sign_in(app.test_client(), "leaving@acme.test", "leaving password")
    page = text(back.get(KEYS))
    assert "Other Co" in page and "Acme Tickets" not in page


# -- expiry --------------------------------------------------------------------------------


def test_the_limits_have_defaults_and_come_from_the_environment(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert config.DEFAULTS["DASHBOARD_SESSION_IDLE_SECONDS"] == 12 * 3600
    assert config.DEFAULTS["DASHBOARD_SESSION_MAX_SECONDS"] == 7 * 24 * 3600
    monkeypatch.setenv("DASHBOARD_SESSION_IDLE_SECONDS", "900")
    monkeypatch.setenv("DASHBOARD_SESSION_MAX_SECONDS", "28800")
    settings = config.load(str(tmp_path))
    assert settings["DASHBOARD_SESSION_IDLE_SECONDS"] == 900
    assert settings["DASHBOARD_SESSION_MAX_SECONDS"] == 28800


def test_a_session_ends_after_12_hours_without_a_request(app: Flask, frozen: Clock,
                                                         org: dict[str, Any]) -> None:
    dash = sign_in(app.test_client(), org["email"], org["password"])
    frozen.forward(hours=12, seconds=-1)
    assert_signed_in(dash)  # each request starts the idle time again
    frozen.forward(hours=12, seconds=-1)
    assert_signed_in(dash)
    thief = copy_of(app, dash)
    frozen.forward(hours=12)
    assert_signed_out(app, dash)
    assert_signed_out(app, thief)
    assert_signed_in(sign_in(dash.client, org["email"], org["password"]))


def test_a_session_ends_7_days_after_sign_in_however_busy(app: Flask, frozen: Clock,
                                                          org: dict[str, Any]) -> None:
    dash = sign_in(app.test_client(), org["email"], org["password"])
    for _ in range(15):  # a request every 11 hours: never idle
        frozen.forward(hours=11)
        assert_signed_in(dash)
    frozen.now = START + timedelta(days=7, seconds=-1)
    assert_signed_in(dash)
    frozen.forward(seconds=1)
    assert_signed_out(app, dash)
    assert_signed_in(sign_in(dash.client, org["email"], org["password"]))


def test_the_configured_limits_are_the_ones_kept(strict_app: Flask) -> None:
    app = strict_app
    org = _organization(app, "Acme Tickets", "owner")
    frozen = Clock()
    dash = sign_in(app.test_client(), org["email"], org["password"])
    frozen.forward(seconds=59)
    assert_signed_in(dash)
    frozen.forward(seconds=60)
    assert_signed_out(app, dash)

    dash = sign_in(app.test_client(), org["email"], org["password"])
    frozen.forward(seconds=50)
    assert_signed_in(dash)
    frozen.forward(seconds=50)
    assert_signed_in(dash)
    frozen.forward(seconds=50)
    assert_signed_out(app, dash)
