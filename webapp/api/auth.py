"""Bearer-key authentication for /v1 and the per-key rate limit that follows it.

Order (decisions.md section 1): authenticate (401) -> rate limit (429) -> the view.
Flask-Limiter checks its limits before the blueprint's own hooks run, so the limit's key
function authenticates first; `g.ctx` keeps the result for the view.
"""

from __future__ import annotations

from flask import current_app, g, request

from webapp.services.accounts import api_keys
from webapp.services.context import Context

PUBLIC_ENDPOINTS = {"api.openapi"}


def current_context() -> Context:
    """The authenticated context of this request (authenticating on first use).

    :raises AuthenticationFailed: missing, malformed, unknown or revoked key.
    """
    ctx = g.get("ctx")
    if ctx is None:
        header = request.headers.get("Authorization", "")
        scheme, _, secret = header.partition(" ")
        ctx = api_keys.authenticate(
            secret.strip() if scheme.lower() == "bearer" else None, g.get("request_id")
        )
        g.ctx = ctx
    return ctx


def rate_limit_key() -> str:
    """The bucket: organization and environment."""
    if is_public():
        return "public"
    ctx = current_context()
    return f"api:{ctx.organization_id}:{ctx.environment}"


def rate_limit_value() -> str:
    """Requests per second for the key's environment (configurable)."""
    if is_public():
        return f"{current_app.config['RATE_LIMIT_LIVE']}/second"
    per_second = current_app.config[f"RATE_LIMIT_{current_context().environment.upper()}"]
    return f"{per_second}/second"


def is_public() -> bool:
    """Endpoints that need no key (the OpenAPI document) and unrouted paths (404)."""
    return request.endpoint in PUBLIC_ENDPOINTS or request.endpoint is None


def authenticate() -> None:
    """Blueprint hook: every /v1 request but the public ones carries a valid key."""
    if not is_public():
        current_context()
