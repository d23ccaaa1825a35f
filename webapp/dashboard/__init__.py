"""The staff dashboard (HTMX, Flask-Login) over the same services as the API.

URLs carry the environment: `/dashboard/test/passes`, `/dashboard/live/passes`, so two tabs
can look at test and live side by side and a link always says which one it shows. The
organization is the session's choice (switched in the header).

A new section (e.g. webhooks) joins with one line in the import list below; its module
adds routes to `bp` and calls `nav.add(...)`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Blueprint, Flask, Response, g, redirect, request, session, url_for
from flask_login import current_user
from flask_wtf.csrf import CSRFError
from htmx_flask import Htmx
from werkzeug.wrappers import Response as BaseResponse

from webapp import clock
from webapp.dashboard import forms, nav
from webapp.errors import NotFound, ServiceError
from webapp.extensions import csrf, login_manager
from webapp.services.accounts.members import NotOwner
from webapp.services.context import Context

bp = Blueprint("dashboard", __name__, url_prefix="/dashboard")
ENV = "<any(test, live):env>"
PUBLIC_ENDPOINTS = {"dashboard.login", "dashboard.root", "dashboard.invitation"}
# All a member with the `scanner` role may reach (static files are the app's, not ours):
# the scanner and its verdicts, signing in and out, their own password, which organization.
SCANNER_ENDPOINTS = PUBLIC_ENDPOINTS | {
    "dashboard.scan_open", "dashboard.scan_index", "dashboard.scan_verdict",
    "dashboard.scan_balance", "dashboard.logout",
    "dashboard.account", "dashboard.switch_organization"}
_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


@bp.url_value_preprocessor
def _pop_env(endpoint: str | None, values: dict[str, Any] | None) -> None:
    g.env = (values or {}).pop("env", None)


@bp.url_defaults
def _add_env(endpoint: str, values: dict[str, Any]) -> None:
    from flask import current_app

    if "env" in values or not g.get("env"):
        return
    if current_app.url_map.is_endpoint_expecting(endpoint, "env"):
        values["env"] = g.env


@bp.before_request
def _guard() -> BaseResponse | None:
    """CSRF on every state change, then a signed-in member for everything but sign-in, and
    for a scanner only the scanner's pages."""
    if request.method not in _SAFE_METHODS:
        csrf.protect()
        forms.check_text(request.form)
    if request.endpoint in PUBLIC_ENDPOINTS:
        return None
    from webapp.dashboard.auth import end_this_session, to_sign_in

    if not current_user.is_authenticated:
        return to_sign_in()
    if _membership_ended():
        return end_this_session()
    enter()
    session["org_id"] = g.membership.organization_id
    session["membership_id"] = g.membership.id
    if g.membership.role == "scanner" and request.endpoint not in SCANNER_ENDPOINTS:
        return _scanner_only()
    return None


def _scanner_only() -> BaseResponse:
    """A scanner opening another page lands on the scanner; anything else is a 403."""
    from webapp.dashboard.errors import for_status
    from webapp.dashboard.htmx import go

    if request.method in ("GET", "HEAD"):
        return go(url_for("dashboard.scan_index", env=g.env) if g.env
                  else url_for("dashboard.scan_open"))
    return for_status(403)


def _membership_ended() -> bool:
    """Whether the membership this session acts in was removed: the session ends (the
    user's sessions in their other organizations go on)."""
    acting = session.get("membership_id")
    return acting is not None and all(m.id != acting for m in current_user.staff.memberships)


def enter() -> None:
    """Set `g.membership` and `g.ctx` for the signed-in user: the session's organization,
    else their first."""
    membership = current_user.staff.membership(session.get("org_id")) or \
        current_user.staff.memberships[0]
    g.membership = membership
    g.ctx = Context(organization_id=membership.organization_id,
                    environment=g.env or "test", actor="dashboard",
                    request_id=g.get("request_id"), user_id=current_user.staff.id)


def ctx() -> Context:
    """The context of this request: the chosen organization and the URL's environment."""
    return g.ctx


@bp.get("/")
def root() -> BaseResponse:
    """Where signing in lands: the Overview of test; for a scanner, the scanner."""
    if current_user.is_authenticated:
        enter()
        if g.membership.role == "scanner":
            return redirect(url_for("dashboard.scan_open"))
    return redirect(url_for("dashboard.insights_home", env="test"))


@bp.context_processor
def _layout() -> dict[str, Any]:
    items = nav.ITEMS if g.get("membership") is None or g.membership.role != "scanner" \
        else [item for item in nav.ITEMS if item.endpoint in SCANNER_ENDPOINTS]
    return {"nav_items": items, "nav_active": nav.active, "reasons": REASONS,
            "delivery_colour": delivery_colour, "now": clock.now()}


REASONS = {
    "not_issued_for_platform": "The pass was not issued for this wallet.",
    "voided": "The pass is voided.",
    "credentials_missing": "Its certificate or issuer was deleted: add it again.",
    "certificate_expired": "The Apple certificate has expired: upload a renewed one.",
    "image_not_public": "Google fetches images by URL; this server is not reachable over "
                        "public HTTPS (BASE_URL).",
    "wallet_unavailable": "The Google Wallet object is not written yet.",
}


def delivery_colour(status: str | None) -> str:
    """The badge colour of a delivery status."""
    return {"delivered": "green", "updated": "green", "sent": "blue", "pending": "amber",
            "failed": "red", "no_devices": "gray", "not_saved": "gray"}.get(status or "", "gray")


@bp.app_template_filter("ago")
def _ago(value: datetime) -> str:
    """A short, relative time: "just now", "5 minutes ago", "in 3 days", else the date."""
    seconds = (clock.now() - value).total_seconds()
    future, seconds = seconds < 0, abs(seconds)
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = int(seconds // size)
            if unit == "day" and count > 30:
                return value.strftime("%Y-%m-%d")
            text = f"{count} {unit}{'s' * (count != 1)}"
            return f"in {text}" if future else f"{text} ago"
    return "just now"


@bp.errorhandler(429)
def _too_many(exc: Any) -> Response:
    """The sign-in page's own answer (set by its `on_breach`), not the plain error page."""
    return exc.get_response()


@bp.errorhandler(CSRFError)
def _csrf_failed(exc: CSRFError) -> Response:
    from webapp.dashboard.errors import page

    return page(400, "This form has expired",
                "Reload the page and try again. (The security token of the form was "
                "missing or out of date.)")


@bp.errorhandler(ServiceError)
def _service_error(exc: ServiceError) -> Response:
    from webapp.dashboard.errors import page

    if isinstance(exc, NotFound):
        status, title = 404, "Not found"
    elif isinstance(exc, NotOwner):
        status, title = 403, "Only an owner can do this"
    else:
        status, title = 400, "That did not work"
    return page(status, title, exc.message)


@bp.app_template_global()
def env_url(env: str) -> str:
    """The same page in the other environment (a section's index when the page shows an
    object that lives in one environment only)."""
    endpoint = request.endpoint or "dashboard.passes_index"
    args = dict(request.view_args or {})
    if endpoint.startswith("dashboard.passes_") and args:
        endpoint, args = "dashboard.passes_index", {}
    try:
        return url_for(endpoint, **{**args, "env": env})
    except Exception:  # an endpoint without an environment
        return url_for("dashboard.passes_index", env=env)


def init_app(app: Flask) -> None:
    """Register the dashboard with its session, sign-in and CSRF settings."""
    secure = str(app.config.get("BASE_URL", "")).startswith("https://")
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax",
                      SESSION_COOKIE_SECURE=secure, REMEMBER_COOKIE_HTTPONLY=True,
                      REMEMBER_COOKIE_SAMESITE="Lax", REMEMBER_COOKIE_SECURE=secure)
    for name, value in (("WTF_CSRF_CHECK_DEFAULT", False), ("WTF_CSRF_TIME_LIMIT", None),
                        ("WTF_CSRF_SSL_STRICT", secure),
                        # Failures only: sign-ins per account, and per client IP address.
                        ("DASHBOARD_LOGIN_LIMIT", "10/minute;50/hour"),
                        ("DASHBOARD_LOGIN_IP_LIMIT", "60/minute;300/hour"),
                        # Unknown codes per signed-in scanner.
                        ("DASHBOARD_SCAN_FAILURE_LIMIT", "20/minute;100/hour")):
        app.config.setdefault(name, value)
    csrf.init_app(app)
    # Belt and braces: even with WTF_CSRF_CHECK_DEFAULT turned on, the bearer-token doors
    # (/v1, the wallet web services and callbacks) are never CSRF-checked.
    for blueprint in list(app.blueprints.values()):
        csrf.exempt(blueprint)
    login_manager.init_app(app)
    login_manager.session_protection = "basic"
    Htmx(app)  # `request.htmx`: the HTMX request headers, parsed
    app.register_blueprint(bp)


# Pages: one module per section. A new section adds its module here (one line).
from webapp.dashboard import (  # noqa: E402, F401
    auth,
    balances,
    bulk_jobs,
    certificates,
    insights,
    invitations,
    keys,
    members,
    messages,
    pass_tags,
    passes,
    scanner,
    signup,
    templates,
    webhooks,
)
