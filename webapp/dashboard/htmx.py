"""Small HTMX helpers over htmx-flask: one route answers a full page or a fragment."""

from __future__ import annotations

from typing import Any

from flask import Response, make_response, redirect, render_template
from htmx_flask import make_response as htmx_response
from htmx_flask import request
from werkzeug.wrappers import Response as BaseResponse


def is_htmx() -> bool:
    """Whether HTMX sent this request (and it is not a history restore)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def render(page: str, partial: str | None = None, status: int = 200, /,
           **context: Any) -> Response:
    """The page, or only `partial` when HTMX asks; `Vary: HX-Request` either way."""
    name = partial if (partial and is_htmx()) else page
    response = make_response(render_template(name, **context), status)
    response.vary.add("HX-Request")
    return response


def go(url: str) -> BaseResponse:
    """Send the browser to `url`: HX-Redirect for HTMX, 303 otherwise."""
    if is_htmx():
        return htmx_response("", 200, redirect=url)
    return redirect(url, 303)
