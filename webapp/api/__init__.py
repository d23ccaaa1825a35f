"""The /v1 JSON API: a bearer key on every request, one service call per view."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, g

bp = Blueprint("api", __name__, url_prefix="/v1")

# Routes and hooks attach to the blueprint once, when this package is first imported.
from webapp.api import (  # noqa: E402, F401  (routes)
    assets,
    auth,
    balances,
    bulk_jobs,
    download_links,
    erasure,
    events,
    insights,
    me,
    messages,
    openapi,
    passes,
    redemptions,
    templates,
    webhooks,
)
from webapp.extensions import limiter  # noqa: E402

bp.before_request(auth.authenticate)
bp.before_request(auth.authorize)
limiter.shared_limit(auth.rate_limit_value, scope="v1", key_func=auth.rate_limit_key,
                     exempt_when=auth.is_public)(bp)


def init_app(app: Flask) -> None:
    """Register the /v1 blueprint (before the limiter, so `_retry_after` runs after it)."""
    app.register_blueprint(bp)
    auth.check_declared(app)
    app.after_request(_retry_after)


def _retry_after(response: Response) -> Response:
    """Retry-After only where it means something: 429, and the errors that set their own.

    Flask-Limiter writes it on every response; the envelope records its own in `g`.
    """
    intended = g.pop("retry_after", None)
    if response.status_code == 429 and intended:  # a service's own limit (email sends)
        response.headers["Retry-After"] = intended
    elif response.status_code == 429:
        # Flask-Limiter truncates to 0 in the window's last second: never ask for 0.
        try:
            seconds = int(response.headers.get("Retry-After", "0"))
        except ValueError:
            seconds = 0
        if seconds < 1:
            response.headers["Retry-After"] = "1"
    elif intended:
        response.headers["Retry-After"] = intended
    else:
        response.headers.pop("Retry-After", None)
    return response
