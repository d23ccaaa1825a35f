"""Forms that create something run once per drawn form, whatever the number of posts.

A creating form carries a `form_token`, new each time the form is drawn (the `form_once()`
template global writes the hidden input). Its view, wrapped in `@once_per_form`, runs in one
transaction with an idempotency record under that token (`webapp/db/idempotency`, the API's
Idempotency-Key records, scoped to the organization and environment): the first post runs
and its answer is stored with its change, in one commit; any later or simultaneous post of
the same form waits for the first and gets its answer again. Only a success (2xx or 3xx) is
stored: a form refused (4xx) is corrected and sent again with the same token.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, make_response, request
from markupsafe import Markup

from webapp import ids
from webapp.dashboard import bp, ctx
from webapp.db import idempotency
from webapp.db.transaction import transaction
from webapp.errors import IdempotencyKeyInUse

FIELD = "form_token"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
WAIT_SECONDS = 20  # for the first post of the same form to finish
# What a replayed answer needs besides its body: where it sent the browser, what it told HTMX.
_KEPT_HEADERS = ("Location", "HX-Redirect", "HX-Trigger", "HX-Trigger-After-Settle",
                 "HX-Retarget", "HX-Reswap", "Content-Type")


class FormExpired(Exception):
    """The post has no usable form token (a page from before the token, or forged)."""


@bp.app_template_global()
def form_once() -> Markup:
    """The hidden input that makes the form it is in run once."""
    return Markup('<input type="hidden" name="{}" value="{}">').format(FIELD, ids.token(18))


@bp.errorhandler(FormExpired)
def _expired(exc: FormExpired) -> Response:
    from webapp.dashboard.errors import page

    return page(400, "This form has expired",
                "Reload the page and try again. (The form was drawn before an update of this "
                "service, or is not this service's.)")


def once_per_form(view: Callable[..., Any]) -> Callable[..., Response]:
    """Run the view once per form token; a repeated post gets the first answer."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Response:
        if request.method != "POST":  # the same route draws the form
            return make_response(view(*args, **kwargs))
        token = request.form.get(FIELD, "")
        if not _TOKEN.fullmatch(token):
            raise FormExpired
        key = f"form:{ctx().user_id}:{token}"
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            try:
                return _run_once(view, key, args, kwargs)
            except IdempotencyKeyInUse:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)  # the same form, posted again while the first runs

    return wrapper


def _run_once(view: Callable[..., Any], key: str, args: Any, kwargs: Any) -> Response:
    release = idempotency.hold(ctx(), key)
    try:
        with transaction() as session:
            claimed = idempotency.claim(session, ctx(), key, _fingerprint())
            if isinstance(claimed, idempotency.Replay):
                return _replay(claimed)
            response = make_response(view(*args, **kwargs))
            if response.status_code < 400:
                idempotency.store(session, claimed, response.status_code, _kept(response))
        return response
    finally:
        if release is not None:
            release()


def _fingerprint() -> str:
    """The form's route, hashed to the column's 64 characters whatever the path's length."""
    return hashlib.sha256(f"POST {request.path}".encode()).hexdigest()


def _kept(response: Response) -> str:
    headers = {name: response.headers[name] for name in _KEPT_HEADERS if name in response.headers}
    return json.dumps({"headers": headers, "body": response.get_data(as_text=True)})


def _replay(replay: idempotency.Replay) -> Response:
    kept = json.loads(replay.body)
    response = Response(kept["body"], status=replay.status_code)
    for name, value in kept["headers"].items():
        response.headers[name] = value
    return response
