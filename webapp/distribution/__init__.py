"""Public doors: holder pages, pass files, wallet web services, public asset bytes."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, make_response, render_template

bp = Blueprint("distribution", __name__)

from webapp.distribution import (  # noqa: E402, F401  (routes)
    apple,
    assets,
    google,
    pages,
    signup,
)
from webapp.distribution import holder_view as view  # noqa: E402
from webapp.extensions import limiter  # noqa: E402


def _public_limit() -> str:
    return f"{current_app.config['RATE_LIMIT_PUBLIC']}/minute"


limiter.shared_limit(_public_limit, scope="public")(bp)


@bp.errorhandler(429)
def _too_many(exc: Any) -> Response:
    """The holder pages' own page in the reader's language, not the limiter's plain one
    (devices of the wallet web services read only the status and Retry-After)."""
    page = make_response(render_template("holder/busy.html"), 429)
    return view.secure(page, private=True)


def init_app(app: Flask) -> None:
    """Register the public routes (rate-limited per client IP)."""
    app.register_blueprint(bp)
