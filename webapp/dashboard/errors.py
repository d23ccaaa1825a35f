"""The dashboard's error pages: its own layout (the navigation when signed in, the sign-in
card when not) with a way back, or only the error card when HTMX asks.

The app-wide handlers (`webapp/errorpages.py`) answer with these for every path under
/dashboard, so an unknown address or a wrong method (which match no route, and so never
reach the blueprint's handlers) looks like the dashboard too.
"""

from __future__ import annotations

import logging

from flask import Response, g, request
from flask_login import current_user
from werkzeug.http import HTTP_STATUS_CODES

log = logging.getLogger("webapp.errors")

PREFIX = "/dashboard"

_PAGES: dict[int, tuple[str, str]] = {
    400: ("That did not work", "The request could not be understood. Go back and try again."),
    403: ("Not allowed", "Your role in this organization does not allow this. Ask an owner."),
    404: ("Page not found", "There is no dashboard page at this address. The link may be "
                            "mistyped, or what it showed may have been deleted."),
    405: ("Not possible here", "This address does not take that kind of request. Go back "
                               "and use the page's buttons and links."),
    413: ("Too large", "What was sent is over the size limit. Try a smaller file."),
    500: ("Something went wrong", "The error has been logged. Try again in a moment."),
    503: ("Temporarily unavailable", "The dashboard cannot reach its database right now. "
                                     "Try again in a moment."),
}


def is_dashboard() -> bool:
    """Whether this request is for a dashboard address."""
    return request.path == PREFIX or request.path.startswith(PREFIX + "/")


def for_status(status: int, *, signed_in: bool = True) -> Response:
    """The page of an HTTP error status; `signed_in=False` skips looking up the user (the
    database may be what failed)."""
    title, message = _PAGES.get(status) or (HTTP_STATUS_CODES.get(status, "Error"),
                                            "Go back and try again.")
    detail = {404: request.path, 405: f"{request.method} {request.path}"}.get(status)
    reference = g.get("request_id") if status >= 500 else None
    return page(status, title, message, detail=detail, reference=reference,
                signed_in=signed_in)


def page(status: int, title: str, message: str, *, detail: str | None = None,
         reference: str | None = None, signed_in: bool = True) -> Response:
    """The error card in the dashboard's layout (a fragment for HTMX), with `status`."""
    from webapp.dashboard import _layout
    from webapp.dashboard.htmx import render

    if not g.get("env"):  # an address that matched no route: its environment, if any
        g.env = "live" if request.path.startswith(f"{PREFIX}/live/") else "test"
    if signed_in and not g.get("membership"):
        _enter_if_signed_in()
    context = {**_layout(), "title": title, "message": message, "detail": detail,
               "reference": reference}
    try:
        return render("dashboard/error.html", "dashboard/_error.html", status, **context)
    except Exception:
        if not g.get("membership"):
            raise
        log.exception("error page without the navigation requestId=%s", g.get("request_id"))
        g.membership = None  # the signed-out layout needs no database
        return render("dashboard/error.html", "dashboard/_error.html", status, **context)


def _enter_if_signed_in() -> None:
    from webapp.dashboard import enter

    try:
        if current_user.is_authenticated:
            enter()
    except Exception:  # e.g. the database is what failed: show the signed-out layout
        log.warning("error page without the navigation requestId=%s", g.get("request_id"),
                    exc_info=True)
        g.membership = None
