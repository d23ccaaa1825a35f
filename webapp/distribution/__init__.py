"""Public doors: holder pages, pass files, wallet web services, public asset bytes."""

from __future__ import annotations

from flask import Blueprint, Flask, current_app

bp = Blueprint("distribution", __name__)

from webapp.distribution import (  # noqa: E402, F401  (routes)
    apple,
    assets,
    google,
    pages,
)
from webapp.extensions import limiter  # noqa: E402


def _public_limit() -> str:
    return f"{current_app.config['RATE_LIMIT_PUBLIC']}/minute"


limiter.shared_limit(_public_limit, scope="public")(bp)


def init_app(app: Flask) -> None:
    """Register the public routes (rate-limited per client IP)."""
    app.register_blueprint(bp)
