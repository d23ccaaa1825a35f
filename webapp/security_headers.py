"""Security headers on every answer: the dashboard's own policy, and safe defaults for the
rest (holder pages set stricter ones themselves, in `distribution/holder_view.secure`).

The dashboard's pages load only same-origin files: no inline script, style or event
handler (dashboard.js does what `onclick`/`style` attributes did), and htmx runs with
`allowEval` off.
"""

from __future__ import annotations

from flask import Flask, Response

from webapp.dashboard.errors import is_dashboard
from webapp.distribution import holder_view

DASHBOARD_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                 "connect-src 'self'; form-action 'self'; base-uri 'none'; "
                 "frame-ancestors 'none'")
# Public error pages, files and the API: the holder pages' policy without their theme block.
PUBLIC_CSP = holder_view.csp()

# Headers of the answers written outside Flask (gunicorn's own errors, see gunicorn.conf.py).
PUBLIC_HEADERS = {
    "Content-Security-Policy": PUBLIC_CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # Download-link and holder-page URLs are keys to a pass: never sent on in a Referer.
    "Referrer-Policy": "no-referrer",
}


def add_headers(response: Response) -> Response:
    """Set the headers a view did not set itself; dashboard answers are never stored."""
    headers = response.headers
    if is_dashboard():
        headers.setdefault("Content-Security-Policy", DASHBOARD_CSP)
        headers.setdefault("Referrer-Policy", "same-origin")
        # Pages of a signed-in member, and the sign-in form with its CSRF token.
        headers["Cache-Control"] = "no-store"
    for name, value in PUBLIC_HEADERS.items():
        headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    """Add the headers to every response, error pages included."""
    app.after_request(add_headers)
