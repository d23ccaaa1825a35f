"""Sign in, sign out, change password, switch organization; the Flask-Login user of a
session.

A session ends on the server: its Flask-Login ID carries the user's session token, which
sign-out and a new password change (`users.end_sessions`), so every copy of the cookie stops
working. A session also names the membership it acts in: once that membership is removed,
the session (every copy of it) ends, and the user's sessions in other organizations go on.
It ends after DASHBOARD_SESSION_IDLE_SECONDS without a request and
DASHBOARD_SESSION_MAX_SECONDS after sign-in; those times are kept in the signed cookie,
which cannot be edited. No "remember me" cookie is ever set, and one presented anyway has
no sign-in time, so it signs no one in.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, current_app, g, request, session, url_for
from flask_login import UserMixin, current_user, login_user, logout_user
from htmx_flask import request as htmx_request
from werkzeug.wrappers import Response as BaseResponse

from webapp import clock
from webapp.dashboard import ENV, attempts, bp
from webapp.dashboard.htmx import go, is_htmx, render
from webapp.errors import InvalidRequest
from webapp.extensions import login_manager
from webapp.services.accounts import users

_FAILED = "Incorrect email or password."
_SIGNED_IN_AT, _SEEN_AT = "signed_in_at", "seen_at"  # session keys: Unix seconds


class SessionUser(UserMixin):
    """The Flask-Login user: the staff record plus a session token that a password
    change invalidates."""

    def __init__(self, staff: users.Staff):
        self.staff = staff
        self.email = staff.email

    def get_id(self) -> str:
        return f"{self.staff.id}:{self.staff.session_token}"


@login_manager.user_loader
def _load(session_id: str) -> SessionUser | None:
    if not _within_limits():
        return None
    user_id, _, token = (session_id or "").partition(":")
    staff = users.load(user_id, token)
    if staff is None:
        return None
    session[_SEEN_AT] = _seconds()
    return SessionUser(staff)


def _seconds() -> int:
    return int(clock.now().timestamp())


def _within_limits() -> bool:
    """Whether the session is within its idle and absolute limits; one without its times
    (a remember cookie, a session from before the limits) is not."""
    signed_in_at, seen_at = session.get(_SIGNED_IN_AT), session.get(_SEEN_AT)
    if not isinstance(signed_in_at, int) or not isinstance(seen_at, int):
        return False
    now, config = _seconds(), current_app.config
    return (now - seen_at < config["DASHBOARD_SESSION_IDLE_SECONDS"]
            and now - signed_in_at < config["DASHBOARD_SESSION_MAX_SECONDS"])


def _start_session(staff: users.Staff) -> None:
    """Sign `staff` in to this session, its limits counted from now."""
    login_user(SessionUser(staff))
    session[_SIGNED_IN_AT] = session[_SEEN_AT] = _seconds()


def to_sign_in() -> BaseResponse:
    """Send a signed-out visitor to the sign-in page, remembering where they were going."""
    target = request.full_path.rstrip("?") if request.method == "GET" else None
    if is_htmx():
        parts = urlsplit(htmx_request.htmx.current_url or "")
        target = parts.path + (f"?{parts.query}" if parts.query else "")
    return go(url_for("dashboard.login", next=_safe_next(target)))


def _sign_in_buckets() -> list[attempts.Bucket]:
    """Failed sign-ins: per account, and (a higher limit) per client IP address."""
    config = current_app.config
    email = request.form.get("email", "").strip().lower()
    return [(config["DASHBOARD_LOGIN_LIMIT"], attempts.key("login-account", email)),
            (config["DASHBOARD_LOGIN_IP_LIMIT"],
             attempts.key("login-ip", request.remote_addr or "-"))]


def _too_many(wait: int) -> str:
    return f"Too many failed attempts. Wait {attempts.words(wait)} and try again."


@bp.route("/login", methods=["GET", "POST"])
def login() -> BaseResponse:
    target = _safe_next(request.values.get("next"))
    if request.method == "GET":
        if current_user.is_authenticated:
            return go(target or _landing(current_user.staff))
        return render("dashboard/login.html", email="", next=target)
    email, buckets = request.form.get("email", ""), _sign_in_buckets()
    if wait := attempts.start(buckets):
        return _retry_after(render("dashboard/login.html", None, 429, email=email,
                                   next=target, error=_too_many(wait)), wait)
    staff = users.sign_in(email, request.form.get("password", ""))
    if staff is None:
        return render("dashboard/login.html", None, 401, email=email, next=target,
                      error=_FAILED)
    attempts.succeeded(buckets)
    start(staff, staff.memberships[0])
    return go(target or _landing(staff))


def start(staff: users.Staff, membership: users.StaffMembership) -> None:
    """A fresh session (and CSRF token) for the signed-in person, acting in `membership`."""
    session.clear()
    _start_session(staff)
    session["org_id"] = membership.organization_id
    session["membership_id"] = membership.id


def end_this_session() -> BaseResponse:
    """Sign this browser out (the membership it acted in was removed): to sign in again.
    Every copy of the cookie still names the removed membership, so each ends the same way."""
    logout_user()
    for name in ("membership_id", "org_id", _SIGNED_IN_AT, _SEEN_AT):
        session.pop(name, None)
    return to_sign_in()


def _retry_after(response: Response, wait: int) -> Response:
    response.headers["Retry-After"] = str(wait)
    return response


def _landing(staff: users.Staff) -> str:
    """The Overview of test; for a scanner, the scanner (of live when live has passes)."""
    if staff.memberships[0].role == "scanner":
        return url_for("dashboard.scan_open")
    return url_for("dashboard.insights_home", env="test")


@bp.post("/logout")
def logout() -> BaseResponse:
    users.end_sessions(current_user.staff.id)  # every copy of the cookie, every device
    session.clear()
    logout_user()  # after the clear: it also deletes a remember cookie, were one sent
    return go(url_for("dashboard.login"))


@bp.route(f"/{ENV}/account", methods=["GET", "POST"])
def account() -> Response:
    """The signed-in person's password; a new one ends their other sessions."""
    if request.method == "GET":
        return render("dashboard/account.html")
    new_password = request.form.get("new_password", "")
    if new_password != request.form.get("confirm_password", ""):
        return render("dashboard/account.html", None, 422,
                      errors={"confirm_password": "The two new passwords differ."})
    buckets = [(current_app.config["DASHBOARD_LOGIN_LIMIT"],
                attempts.key("password", current_user.staff.id))]
    if wait := attempts.start(buckets):
        return _retry_after(render("dashboard/account.html", None, 429, errors={
            "current_password": _too_many(wait)}), wait)
    try:
        staff = users.change_password(current_user.staff.id,
                                      request.form.get("current_password", ""), new_password)
    except InvalidRequest as exc:
        if exc.param != "current_password":
            attempts.succeeded(buckets)  # only a wrong current password counts
        return render("dashboard/account.html", None, 422,
                      errors={exc.param or "new_password": exc.message})
    attempts.succeeded(buckets)
    _start_session(staff)  # this session goes on with the new token; the others end
    return render("dashboard/account.html", flash="Your password is changed. Every other "
                  "session of yours is signed out.")


@bp.post(f"/{'<any(test, live):env>'}/organization")
def switch_organization() -> BaseResponse:
    membership = current_user.staff.membership(request.form.get("organization_id"))
    if membership is None:
        from webapp.errors import NotFound

        raise NotFound("You are not a member of that organization.")
    session["org_id"] = membership.organization_id
    session["membership_id"] = membership.id
    return go(url_for("dashboard.insights_home", env=g.env))


def _safe_next(value: str | None) -> str | None:
    """Only a path inside the dashboard: never another host (open redirect)."""
    if not value or not value.startswith("/dashboard/") or value.startswith("//") \
            or "\\" in value or "\n" in value or "\r" in value:
        return None
    return value
