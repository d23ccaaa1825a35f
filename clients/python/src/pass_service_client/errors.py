"""Typed errors: every answer of 400 or more becomes a `PassServiceError` subclass.

    PassServiceError                 status, type, code, param, message, request_id, body
     +-- InvalidRequestError         400, 413, 422 ... (invalid_request_error)
     +-- AuthenticationError         401 (code invalid_api_key)
     +-- PermissionDeniedError       403 (permission_error)
     +-- NotFoundError               404 (not_found_error)
     +-- ConflictError               409 (conflict_error)
     +-- IdempotencyError            409 (idempotency_error: the same key still running, or
     |                                    reused with another body)
     +-- RateLimitError              429 (rate_limit_error), after the retries
     +-- ApiServerError              500, 503 (api_error), after the retries

Network failures that outlast the retries stay httpx's own (`httpx.TransportError`).
"""

from __future__ import annotations

import json
from typing import Any


class PassServiceError(Exception):
    """An error answer of the API: the `error` object's members, and the request's ID."""

    def __init__(self, status: int, body: dict[str, Any], request_id: str | None) -> None:
        error = _detail(body)
        self.status = status
        self.type: str | None = error.get("type")
        self.code: str | None = error.get("code")
        self.param: str | None = error.get("param")
        self.message: str = error.get("message") or f"HTTP {status}"
        self.request_id: str | None = body.get("requestId") or request_id
        self.body = body
        super().__init__(f"{status} {self.type or self.code}: {self.message} "
                         f"(requestId {self.request_id})")


class InvalidRequestError(PassServiceError):
    """The request was refused as it is (400, 413, 422...)."""


class AuthenticationError(PassServiceError):
    """401: a missing, malformed, unknown or revoked API key."""


class PermissionDeniedError(PassServiceError):
    """403: the key lacks the permission the operation needs."""


class NotFoundError(PassServiceError):
    """404: no such object (or not in this key's environment)."""


class ConflictError(PassServiceError):
    """409: the object's state refuses the change (a stale revision, a voided pass...)."""


class IdempotencyError(PassServiceError):
    """409: the Idempotency-Key is still running, or was used with another request."""


class RateLimitError(PassServiceError):
    """429 after the client's retries."""


class ApiServerError(PassServiceError):
    """500 or 503 after the client's retries (503 and 500 are safe to retry later)."""


_BY_TYPE: dict[str, type[PassServiceError]] = {
    "invalid_request_error": InvalidRequestError, "permission_error": PermissionDeniedError,
    "not_found_error": NotFoundError, "conflict_error": ConflictError,
    "idempotency_error": IdempotencyError, "rate_limit_error": RateLimitError,
    "api_error": ApiServerError,
}
_BY_STATUS: dict[int, type[PassServiceError]] = {
    401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError,
    409: ConflictError, 429: RateLimitError,
}


def _detail(body: dict[str, Any]) -> dict[str, Any]:
    detail = body.get("error")
    return detail if isinstance(detail, dict) else {}


def from_answer(status: int, content: bytes, request_id: str | None) -> PassServiceError:
    """The typed error for an answer of `status` with body `content`."""
    try:
        body = json.loads(content)
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    error = _detail(body)
    cls = _BY_TYPE.get(str(error.get("type")))
    if status == 401:
        cls = AuthenticationError
    if cls is None:
        cls = _BY_STATUS.get(status, ApiServerError if status >= 500 else InvalidRequestError)
    return cls(status, body, request_id)
