"""The Idempotency-Key wrapper every POST, PATCH and DELETE view wears (decisions.md section 2).

Checked after authentication and the rate limit. One write transaction per request: the key
is claimed, the view runs (its services' blocks are SAVEPOINTs inside it) and its answer (any
status under 500 but 429, business errors included) is stored, in one commit (see
webapp/db/idempotency.py), with the pass a successful answer is about (an erasure opens only
those about its pass and those about none). A retry gets the first answer byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, g, make_response, request
from werkzeug.exceptions import HTTPException

from webapp.api import errors as wire
from webapp.api.requests import fingerprint
from webapp.db import idempotency
from webapp.db.transaction import transaction
from webapp.errors import InvalidRequest, ServiceError

HEADER = "Idempotency-Key"
MAX_LENGTH = 255


def _check_key(value: str | None) -> str:
    if value is None:
        raise InvalidRequest(
            "This request requires an Idempotency-Key header (a unique value such as a UUID).",
            code="idempotency_key_missing", param=HEADER)
    if not value or len(value) > MAX_LENGTH or not all(" " <= ch <= "~" for ch in value):
        raise InvalidRequest(
            "Idempotency-Key must be 1 to 255 printable ASCII characters.",
            code="idempotency_key_invalid", param=HEADER)
    return value


def idempotent(view: Callable[..., Any]) -> Callable[..., Response]:
    """Run the view once per key in one transaction with the key's record; replay retries."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Response:
        key = _check_key(request.headers.get(HEADER))
        request_fingerprint = fingerprint()
        release = idempotency.hold(g.ctx, key)
        try:
            with transaction() as session:
                claimed = idempotency.claim(session, g.ctx, key, request_fingerprint)
                if isinstance(claimed, idempotency.Replay):
                    return _replay(claimed)
                response, about = _run(view, *args, **kwargs)
                if response.status_code >= 500 or response.status_code == 429:
                    raise _NotStored(response)  # a retry with the same key runs again
                idempotency.store(session, claimed, response.status_code,
                                  response.get_data(as_text=True),
                                  about if response.status_code < 400 else None)
            return response
        except _NotStored as failed:  # rolled back: a retry runs again
            return failed.response
        finally:
            if release is not None:
                release()

    wrapper.idempotent = True  # type: ignore[attr-defined]
    return wrapper


class _NotStored(Exception):
    """A 5xx or 429 answer: the transaction is rolled back and the answer sent as it is."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


def _run(view: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Response, str | None]:
    """The view's answer, and the pass it is about (`_pass_of`)."""
    try:
        answer = view(*args, **kwargs)
        return make_response(answer), _pass_of(answer)
    except ServiceError as exc:
        return wire.from_service_error(exc), None
    except HTTPException as exc:
        if (exc.code or 500) >= 500:
            raise
        return wire.from_http_exception(exc), None


def _pass_of(answer: Any) -> str | None:
    """The pass an answer is about: the answer's `id` when it is a pass, else its `pass`'s, else
    its `passId` (a redemption, an email); None otherwise (a bulk job, a message, a list)."""
    body = answer[0] if isinstance(answer, tuple) else answer
    if not isinstance(body, dict):
        return None
    if isinstance(body.get("pass"), dict):
        body = body["pass"]
    found = body.get("id") if body.get("object") == "pass" else body.get("passId")
    return found if isinstance(found, str) else None


def _replay(replay: idempotency.Replay) -> Response:
    response = Response(replay.body or None, status=replay.status_code,
                        mimetype="application/json" if replay.body else None)
    response.headers["Idempotent-Replayed"] = "true"
    # The body is the first request's, byte for byte; so is the Request-Id it names.
    g.replayed_request_id = replay.request_id
    return response
