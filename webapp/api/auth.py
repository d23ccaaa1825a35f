"""Bearer-key authentication for /v1, the per-key rate limit, and the key's permissions.

Order (decisions.md section 1): authenticate (401) -> rate limit (429) -> permission (403)
-> the view.
Flask-Limiter checks its limits before the blueprint's own hooks run, so the limit's key
function authenticates first; `g.ctx` keeps the result for the view. A request without a
valid key is counted per client IP (`RATE_LIMIT_UNAUTHENTICATED` a minute): under that limit
it gets its 401, over it a 429.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, g, request

from webapp.api import errors as wire
from webapp.domain import permissions
from webapp.errors import AuthenticationFailed
from webapp.services.accounts import api_keys
from webapp.services.context import Context

PUBLIC_ENDPOINTS = {"api.openapi"}


def current_context() -> Context:
    """The authenticated context of this request (authenticating on first use).

    :raises AuthenticationFailed: missing, malformed, unknown or revoked key.
    """
    ctx = g.get("ctx")
    if ctx is None:
        if "auth_failure" in g:  # the limiter's key function tried already
            raise g.auth_failure
        header = request.headers.get("Authorization", "")
        scheme, _, secret = header.partition(" ")
        ctx = api_keys.authenticate(
            secret.strip() if scheme.lower() == "bearer" else None, g.get("request_id")
        )
        g.ctx = ctx
    return ctx


def rate_limit_key() -> str:
    """The bucket: organization and environment; the client IP without a valid key."""
    if is_public():
        return "public"
    ctx = _authenticated()
    if ctx is None:
        return f"unauthenticated:{request.remote_addr or '-'}"
    return f"api:{ctx.organization_id}:{ctx.environment}"


def rate_limit_value() -> str:
    """Requests per second for the key's environment, per minute without a valid key."""
    if is_public():
        return f"{current_app.config['RATE_LIMIT_LIVE']}/second"
    ctx = _authenticated()
    if ctx is None:
        return f"{current_app.config['RATE_LIMIT_UNAUTHENTICATED']}/minute"
    return f"{current_app.config[f'RATE_LIMIT_{ctx.environment.upper()}']}/second"


def _authenticated() -> Context | None:
    """The request's context, or None when its key fails (kept for `authenticate`'s 401)."""
    try:
        return current_context()
    except AuthenticationFailed as exc:
        g.auth_failure = exc
        return None


def is_public() -> bool:
    """Endpoints that need no key (the OpenAPI document) and unrouted paths (404)."""
    return request.endpoint in PUBLIC_ENDPOINTS or request.endpoint is None


def authenticate() -> None:
    """Blueprint hook: every /v1 request but the public ones carries a valid key."""
    if not is_public():
        current_context()


def authorize() -> Response | None:
    """Blueprint hook, right after `authenticate`: the key holds the permission the route
    declares (`@doc(permission=...)`), or 403 before any body is read or Idempotency-Key
    claimed. OPTIONS reads nothing (and its route is any of the path's views): not checked."""
    if is_public() or request.method == "OPTIONS":
        return None
    assert request.endpoint is not None  # is_public() covers unrouted paths
    view = current_app.view_functions[request.endpoint]
    need = view.__apidoc__["permission"]  # type: ignore[union-attr]
    if need is None or permissions.allows(current_context().permissions, need):
        return None
    return wire.insufficient_scope(need.refusal())


def check_declared(app: Flask) -> None:
    """Stop the app at start when a /v1 route does not say what permission it needs."""
    missing = sorted(endpoint for endpoint, view in app.view_functions.items()
                     if endpoint.startswith("api.") and endpoint not in PUBLIC_ENDPOINTS
                     and "permission" not in getattr(view, "__apidoc__", {}))
    if missing:
        raise RuntimeError("These /v1 routes declare no permission (@doc(permission=...)): "
                           + ", ".join(missing))
