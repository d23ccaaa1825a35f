"""The service error tree. Services raise these; each front door maps them to its wire.

    ServiceError                   message, code, param
     ├── InvalidRequest            bad input (API: 400 invalid_request_error)
     │    ├── InvalidDefinition    a template definition with `issues` (400)
     │    ├── PayloadTooLarge      a file over its limit (413)
     │    └── Unprocessable        valid input the organization cannot act on (422)
     ├── IdempotencyKeyReused      same key, other request (400 idempotency_error)
     ├── IdempotencyKeyInUse       same key, first request still running (409 idempotency_error)
     ├── NotFound                  unknown ID, or another tenant's (404 not_found_error)
     ├── Conflict                  state forbids it: stale revision, archived, voided (409)
     │    ├── RedemptionRefused    a pass that cannot be checked in now, and why (409)
     │    └── InsufficientBalance  a spend larger than the pass's balance (409)
     ├── AuthenticationFailed      missing, malformed, unknown or revoked key (401)
     ├── RateLimited               too many of something for now; `retry_after` seconds (429)
     └── ServiceUnavailable        a dependency is down (503)

This module imports nothing from webapp and knows no HTTP status codes.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """Base of every error a service raises on purpose."""

    default_code = "error"

    def __init__(self, message: str, *, code: str | None = None, param: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.param = param


class InvalidRequest(ServiceError):
    default_code = "parameter_invalid"


class InvalidDefinition(InvalidRequest):
    """`issues` holds the first `MAX_ISSUES` problems; `issue_count` says how many there are."""

    default_code = "invalid_definition"
    MAX_ISSUES = 100

    def __init__(self, issues: list[dict[str, Any]], message: str | None = None):
        count = len(issues)
        if message is None:
            message = f"The template definition has {count:,} problem{'s' * (count != 1)}"
            message += (f"; the first {self.MAX_ISSUES} are listed." if count > self.MAX_ISSUES
                        else ".")
        super().__init__(message, param="definition")
        self.issues = issues[:self.MAX_ISSUES]
        self.issue_count = count


class PayloadTooLarge(InvalidRequest):
    default_code = "file_too_large"


class Unprocessable(InvalidRequest):
    default_code = "unprocessable"


class IdempotencyKeyReused(ServiceError):
    default_code = "idempotency_key_reused"


class IdempotencyKeyInUse(ServiceError):
    default_code = "idempotency_key_in_use"


class NotFound(ServiceError):
    default_code = "resource_missing"


class Conflict(ServiceError):
    default_code = "conflict"


class RedemptionRefused(Conflict):
    """A pass that cannot be redeemed now. `code` says why (`pass_voided`, `pass_expired`,
    `redemption_not_enabled`, `already_redeemed`, `max_uses_reached`); `pass_id` names the
    pass; `redemption` is the wire object of the earlier redemption that decided it (the
    first for `already_redeemed`, the last for `max_uses_reached`), else None."""

    default_code = "redemption_refused"

    def __init__(self, message: str, *, code: str, pass_id: str,
                 redemption: dict[str, Any] | None = None):
        super().__init__(message, code=code)
        self.pass_id = pass_id
        self.redemption = redemption


class InsufficientBalance(Conflict):
    """A balance transaction that would take a pass's balance below zero: `balance` is the
    pass's balance now, `pass_id` the pass."""

    default_code = "insufficient_balance"

    def __init__(self, message: str, *, pass_id: str, balance: int):
        super().__init__(message)
        self.pass_id = pass_id
        self.balance = balance


class AuthenticationFailed(ServiceError):
    default_code = "invalid_api_key"


class RateLimited(ServiceError):
    """Too many of something within a window; it can be done again in `retry_after` seconds."""

    default_code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int, code: str | None = None,
                 param: str | None = None):
        super().__init__(message, code=code, param=param)
        self.retry_after = max(1, retry_after)


class ServiceUnavailable(ServiceError):
    default_code = "service_unavailable"
