"""An invitation's link (`/dashboard/invitations/<token>`): the invited person signs in (or,
new here, chooses a password) and accepts; then they are a member, signed in to the
organization. Wrong passwords count against the address's sign-in limit, like sign-in's."""

from __future__ import annotations

from flask import Response, current_app, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response as BaseResponse

from webapp.dashboard import attempts, bp
from webapp.dashboard.auth import start
from webapp.dashboard.htmx import go, render
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.services.accounts import invitations, users


def _page(status: int, invitation: invitations.Open | None, **extra: object) -> Response:
    signed_in = current_user.staff if current_user.is_authenticated else None
    response = render("dashboard/invitation.html", None, status, invitation=invitation,
                      signed_in=signed_in, **extra)
    response.headers["Referrer-Policy"] = "no-referrer"  # the token is in the URL
    return response


@bp.route("/invitations/<token>", methods=["GET", "POST"])
def invitation(token: str) -> BaseResponse:
    found = invitations.find(token)
    if found is None:
        return _page(404, None)
    if request.method == "GET":
        return _page(200, found)
    signed_in = current_user.staff.id if current_user.is_authenticated else None
    buckets = [(current_app.config["DASHBOARD_LOGIN_LIMIT"],
                attempts.key("login-account", found.email)),
               (current_app.config["DASHBOARD_LOGIN_IP_LIMIT"],
                attempts.key("login-ip", request.remote_addr or "-"))]
    if signed_in is None and (wait := attempts.start(buckets)):
        response = _page(429, found, error=f"Too many failed attempts. Wait "
                                           f"{attempts.words(wait)} and try again.")
        response.headers["Retry-After"] = str(wait)
        return response
    try:
        user_id = invitations.accept(token, request.form.get("password", ""), signed_in)
    except NotFound:
        return _page(404, None)
    except invitations.WrongPassword as exc:
        return _page(401, found, error=exc.message)
    except (InvalidRequest, Conflict) as exc:
        attempts.succeeded(buckets)  # not a password guess
        return _page(422, found, error=exc.message)
    attempts.succeeded(buckets)
    staff = users.staff_of(user_id)
    membership = staff.membership(found.organization_id) if staff else None
    if staff is None or membership is None:  # pragma: no cover - removed meanwhile
        return _page(404, None)
    start(staff, membership)
    return go(url_for("dashboard.scan_open") if membership.role == "scanner"
              else url_for("dashboard.insights_home", env="test"))
