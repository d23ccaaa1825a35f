"""One table from service errors to the wire, and the error envelope (decisions.md section 1).

    {"error": {"type": ..., "code": ..., "message": ..., "param"?: ..., "issues"?: [...]},
     "requestId": "req_..."}

A refused redemption adds `passId` and `redemption` (the earlier one that decided it, or null);
a refused spend (`insufficient_balance`) adds `passId` and `balance` (the pass's balance now).

The 401 body carries `code: invalid_api_key` and no type, exactly as the spec shows. A
restricted key outside its permissions gets 403 `permission_error` / `insufficient_scope`.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response, g, request
from werkzeug.exceptions import HTTPException

from webapp import errors

_WIRE: list[tuple[type[errors.ServiceError], int, str]] = [
    # Most specific first: the first match wins.
    (errors.InvalidDefinition, 400, "invalid_request_error"),
    (errors.PayloadTooLarge, 413, "invalid_request_error"),
    (errors.Unprocessable, 422, "invalid_request_error"),
    (errors.InvalidRequest, 400, "invalid_request_error"),
    (errors.IdempotencyKeyReused, 400, "idempotency_error"),
    (errors.IdempotencyKeyInUse, 409, "idempotency_error"),
    (errors.NotFound, 404, "not_found_error"),
    (errors.Conflict, 409, "conflict_error"),
    (errors.AuthenticationFailed, 401, ""),
    (errors.RateLimited, 429, "rate_limit_error"),
    (errors.ServiceUnavailable, 503, "api_error"),
]

_HTTP: dict[int, tuple[str, str, str]] = {
    400: ("invalid_request_error", "parameter_invalid", "The request could not be understood."),
    404: ("not_found_error", "route_missing", "No such route."),
    405: ("invalid_request_error", "method_not_allowed", "This method is not allowed here."),
    413: ("invalid_request_error", "file_too_large",
          "The request body is too large: files may be at most 5 MiB."),
    415: ("invalid_request_error", "unsupported_media_type",
          "Content-Type must be application/json."),
    429: ("rate_limit_error", "rate_limit_exceeded",
          "Too many requests hit the API too quickly. Retry after the number of seconds in "
          "Retry-After, with exponential backoff."),
}

INTERNAL_MESSAGE = (
    "An unexpected error occurred on our side. It is safe to retry with the same "
    "Idempotency-Key. If it persists, contact support with the requestId."
)


def envelope(status: int, message: str, *, type_: str | None = None, code: str | None = None,
             param: str | None = None, issues: list[dict[str, Any]] | None = None,
             issue_count: int | None = None, headers: dict[str, str] | None = None,
             extra: dict[str, Any] | None = None) -> Response:
    """An error response in the one documented shape (`extra`: members a refusal adds)."""
    error: dict[str, Any] = {}
    if type_:
        error["type"] = type_
    if code:
        error["code"] = code
    error["message"] = message
    if param:
        error["param"] = param
    if issues is not None:
        error["issues"] = issues
        error["issueCount"] = len(issues) if issue_count is None else issue_count
    error.update(extra or {})
    body = json.dumps({"error": error, "requestId": g.get("request_id", "")})
    response = Response(body, status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    if headers and "Retry-After" in headers:
        g.retry_after = headers["Retry-After"]
    return response


def from_service_error(exc: errors.ServiceError) -> Response:
    """The wire form of a service error."""
    status, type_ = next(((s, t) for cls, s, t in _WIRE if isinstance(exc, cls)),
                         (400, "invalid_request_error"))
    headers = {"Retry-After": "1"} if status in (409, 503) and type_ != "conflict_error" else None
    if isinstance(exc, errors.RateLimited):
        headers = {"Retry-After": str(exc.retry_after)}
    extra: dict[str, Any] | None = ({"passId": exc.pass_id, "redemption": exc.redemption}
             if isinstance(exc, errors.RedemptionRefused) else None)
    if isinstance(exc, errors.InsufficientBalance):
        extra = {"passId": exc.pass_id, "balance": exc.balance}
    return envelope(status, exc.message, type_=type_ or None, code=exc.code, param=exc.param,
                    issues=getattr(exc, "issues", None),
                    issue_count=getattr(exc, "issue_count", None), headers=headers,
                    extra=extra)


def from_http_exception(exc: HTTPException) -> Response:
    """The wire form of a Werkzeug HTTP error (routing, body size, rate limit)."""
    status = exc.code or 500
    if status >= 500:
        return internal_error()
    type_, code, message = _HTTP.get(
        status, ("invalid_request_error", "invalid_request", exc.description or "Bad request.")
    )
    if status == 405:
        allowed = exc.valid_methods if hasattr(exc, "valid_methods") else None
        message = f"{request.method} is not allowed on {request.path}."
        response = envelope(status, message, type_=type_, code=code)
        if allowed:
            response.headers["Allow"] = ", ".join(sorted(allowed))
        return response
    if status == 404:
        message = f"Unrecognized request URL ({request.method}: {request.path})."
    return envelope(status, message, type_=type_, code=code)


def insufficient_scope(message: str) -> Response:
    """403: the key is restricted and lacks the permission the route needs (never stored)."""
    return envelope(403, message, type_="permission_error", code="insufficient_scope")


def internal_error() -> Response:
    """500 with nothing of the failure in it (it is in the log, under the requestId)."""
    return envelope(500, INTERNAL_MESSAGE, type_="api_error")


def unavailable() -> Response:
    """503 when a dependency (the database) is down."""
    return envelope(503, "The service is temporarily unavailable. Retry shortly.",
                    type_="api_error", code="service_unavailable", headers={"Retry-After": "5"})
