"""The Idempotency-Key wrapper every POST, PATCH and DELETE view wears (decisions.md section 2).

Checked after authentication and the rate limit. The key is claimed by the view's first
write transaction, and the answer (any status under 500, business errors included) is
stored in that transaction's commit (see services/idempotency.py); a retry gets the first
answer exactly. A retry's view may run up to its first write (reads and validation),
which changes nothing; its outcome is then the stored answer.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, g, make_response, request
from werkzeug.exceptions import HTTPException

from webapp.api import errors as wire
from webapp.api.requests import fingerprint
from webapp.errors import InvalidRequest, ServiceError
from webapp.services import idempotency

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
    """Claim the key, run the view once, store its answer; replay it for retries."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Response:
        key = _check_key(request.headers.get(HEADER))
        try:
            pending = idempotency.begin(g.ctx, key, fingerprint())
        except idempotency.KeyTaken as taken:  # still running (SQLite holds keys)
            return _taken(taken)
        try:
            try:
                response, first = _answer(pending, view, args, kwargs)
            except idempotency.Stale:  # what its deferred rows rest on changed: again, in place
                response, first = _answer(pending, view, args, kwargs)
        except idempotency.KeyTaken as taken:  # known already, or still running
            return _taken(taken)
        finally:
            idempotency.end(pending)
        return response if first is None else _replay(first)

    wrapper.idempotent = True  # type: ignore[attr-defined]
    return wrapper


def _answer(pending: idempotency.Pending, view: Callable[..., Any], args: Any, kwargs: Any
            ) -> tuple[Response, idempotency.Replay | None]:
    """The view's answer, stored with its change (or the first request's answer)."""
    response = _run(view, *args, **kwargs)
    return response, idempotency.finish(pending, response.status_code,
                                        response.get_data(as_text=True))


def _run(view: Callable[..., Any], *args: Any, **kwargs: Any) -> Response:
    try:
        return make_response(view(*args, **kwargs))
    except ServiceError as exc:
        return wire.from_service_error(exc)
    except HTTPException as exc:
        if (exc.code or 500) >= 500:
            raise
        return wire.from_http_exception(exc)


def _taken(taken: idempotency.KeyTaken) -> Response:
    if isinstance(taken.outcome, idempotency.Replay):
        return _replay(taken.outcome)
    raise taken.outcome


def _replay(replay: idempotency.Replay) -> Response:
    response = Response(replay.body or None, status=replay.status_code,
                        mimetype="application/json" if replay.body else None)
    response.headers["Idempotent-Replayed"] = "true"
    # The body is the first request's, byte for byte; so is the Request-Id it names.
    g.replayed_request_id = replay.request_id
    return response
