"""Sign in, sign out, switch organization; the Flask-Login user of a session."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, current_app, g, request, session, url_for
from flask_login import UserMixin, current_user, login_user, logout_user
from htmx_flask import request as htmx_request
from werkzeug.wrappers import Response as BaseResponse

from webapp.dashboard import bp
from webapp.dashboard.htmx import go, is_htmx, render
from webapp.extensions import limiter, login_manager
from webapp.services.accounts import users

_FAILED = "Incorrect email or password."


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
    user_id, _, token = (session_id or "").partition(":")
    staff = users.load(user_id, token)
    return SessionUser(staff) if staff is not None else None


def to_sign_in() -> BaseResponse:
    """Send a signed-out visitor to the sign-in page, remembering where they were going."""
    target = request.full_path.rstrip("?") if request.method == "GET" else None
    if is_htmx():
        parts = urlsplit(htmx_request.htmx.current_url or "")
        target = parts.path + (f"?{parts.query}" if parts.query else "")
    return go(url_for("dashboard.login", next=_safe_next(target)))


def _login_limit() -> str:
    return current_app.config["DASHBOARD_LOGIN_LIMIT"]


def _login_key() -> str:
    return "login:" + (request.remote_addr or "-")


def _limited(_limit: object) -> Response:
    return render("dashboard/login.html", None, 429, email=request.form.get("email", ""),
                  next=_safe_next(request.form.get("next")),
                  error="Too many sign-in attempts. Wait a minute and try again.")


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(_login_limit, key_func=_login_key, methods=["POST"], on_breach=_limited)
def login() -> BaseResponse:
    target = _safe_next(request.values.get("next"))
    if request.method == "GET":
        if current_user.is_authenticated:
            return go(target or url_for("dashboard.passes_index", env="test"))
        return render("dashboard/login.html", email="", next=target)
    staff = users.sign_in(request.form.get("email", ""), request.form.get("password", ""))
    if staff is None:
        return render("dashboard/login.html", None, 401, email=request.form.get("email", ""),
                      next=target, error=_FAILED)
    session.clear()  # a fresh session (and CSRF token) for the signed-in person
    login_user(SessionUser(staff))
    session["org_id"] = staff.memberships[0].organization_id
    return go(target or url_for("dashboard.passes_index", env="test"))


@bp.post("/logout")
def logout() -> BaseResponse:
    logout_user()
    session.clear()
    return go(url_for("dashboard.login"))


@bp.post(f"/{'<any(test, live):env>'}/organization")
def switch_organization() -> BaseResponse:
    membership = current_user.staff.membership(request.form.get("organization_id"))
    if membership is None:
        from webapp.errors import NotFound

        raise NotFound("You are not a member of that organization.")
    session["org_id"] = membership.organization_id
    return go(url_for("dashboard.passes_index", env=g.env))


def _safe_next(value: str | None) -> str | None:
    """Only a path inside the dashboard: never another host (open redirect)."""
    if not value or not value.startswith("/dashboard/") or value.startswith("//") \
            or "\\" in value or "\n" in value or "\r" in value:
        return None
    return value
