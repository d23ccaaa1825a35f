"""Webhook endpoints: create, list, get, change, delete, rotate the secret; their
deliveries and resending one (decisions.md section 11).

Endpoints belong to one organization and environment; every query is scoped by both. The
signing secret (`whsec_` + base64 of 32 random bytes) is shown once, at creation and at
rotation, and kept encrypted. Delivery itself is `webhooks.delivery.deliver`.
"""

from __future__ import annotations

import base64
import json
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy import update as sql_update
from sqlalchemy.orm import selectinload

from webapp import clock, ids, settings, vault
from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.db.transaction import changed_rows, enqueue_after_commit, transaction
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.extensions import db
from webapp.models import WebhookDelivery, WebhookEndpoint
from webapp.services.context import Context
from webapp.services.webhooks import delivery as webhook_delivery
from webapp.services.webhooks import events, http

MAX_ENDPOINTS = 16  # per organization and environment
MAX_URL = 2048
DEFAULT_OVERLAP = 24 * 3600  # seconds the previous secret keeps signing after a rotation
MAX_OVERLAP = 7 * 24 * 3600
DELIVERY_STATUSES = ("pending", "succeeded", "failed")


@dataclass(frozen=True)
class EndpointChanges:
    """What a PATCH may change; None leaves a member as it is (`clear_description` sets
    the description to null)."""

    url: str | None = None
    enabled_events: list[str] | None = None
    description: str | None = None
    clear_description: bool = False
    status: str | None = None


def create(ctx: Context, url: str, enabled_events: list[str] | None = None,
           description: str | None = None) -> WebhookEndpoint:
    """A new endpoint, enabled, with its secret set on the returned object only.

    :raises InvalidRequest: bad URL (https in live), events, or too many endpoints.
    """
    url = _check_url(ctx, url)
    chosen = _check_events(["*"] if enabled_events is None else enabled_events)
    secret, now = new_secret(), clock.now()
    endpoint = WebhookEndpoint(
        id=ids.new_id("we"), organization_id=ctx.organization_id, environment=ctx.environment,
        url=url, description=_check_description(description), enabled_events=chosen,
        status="enabled", secrets_encrypted=_seal([{"secret": secret, "expiresAt": None}]),
        created_at=now, updated_at=now)
    with transaction() as session:
        count = session.scalar(select(func.count()).select_from(WebhookEndpoint).where(
            *_scope(ctx))) or 0
        if count >= MAX_ENDPOINTS:
            raise InvalidRequest(f"An environment has at most {MAX_ENDPOINTS} webhook "
                                 "endpoints.", code="too_many_endpoints")
        _unique_url(ctx, url)
        session.add(endpoint)
    endpoint.secret = secret
    return endpoint


def list_(ctx: Context, *, limit: int = pagination.DEFAULT_LIMIT,
          cursor: str | None = None) -> pagination.Page[WebhookEndpoint]:
    """The environment's endpoints, newest first.

    :raises InvalidRequest: bad limit or cursor.
    """
    return pagination.paginate(select(WebhookEndpoint).where(*_scope(ctx)), WebhookEndpoint.id,
                               select(WebhookEndpoint.id).where(*_scope(ctx)), limit=limit,
                               cursor=cursor)


def get(ctx: Context, endpoint_id: str) -> WebhookEndpoint:
    """:raises NotFound: no such endpoint in this organization and environment."""
    return find_or_404(WebhookEndpoint, endpoint_id, prefix="we", what="webhook endpoint",
                       where=_scope(ctx))


def update(ctx: Context, endpoint_id: str, changes: EndpointChanges) -> WebhookEndpoint:
    """Change the URL, events, description or status (enabling clears the failing streak).

    :raises NotFound: no such endpoint.
    :raises InvalidRequest: bad URL, events or status.
    """
    endpoint = get(ctx, endpoint_id)
    if changes.status not in (None, "enabled", "disabled"):
        raise InvalidRequest("status must be enabled or disabled.", param="status")
    url = _check_url(ctx, changes.url) if changes.url is not None else None
    chosen = _check_events(changes.enabled_events) if changes.enabled_events is not None \
        else None
    description = _check_description(changes.description)
    disabled_now = changes.status == "disabled" and endpoint.status == "enabled"
    with transaction():
        if url is not None and url != endpoint.url:
            _unique_url(ctx, url)
            endpoint.url = url
        if chosen is not None:
            endpoint.enabled_events = chosen
        if description is not None or changes.clear_description:
            endpoint.description = description
        if changes.status == "enabled" and endpoint.status != "enabled":
            endpoint.status, endpoint.disabled_reason, endpoint.failing_since = \
                "enabled", None, None
        elif disabled_now:
            endpoint.status, endpoint.disabled_reason = "disabled", "manual"
        endpoint.updated_at = clock.now()
    if disabled_now:
        webhook_delivery.fail_pending(endpoint.id, "endpoint_disabled")
    return endpoint


def remove(ctx: Context, endpoint_id: str) -> WebhookEndpoint:
    """Delete an endpoint with its deliveries; the returned object says `deleted`.

    :raises NotFound: no such endpoint.
    """
    endpoint = get(ctx, endpoint_id)
    with transaction() as session:
        # Its deliveries first, in ID order, then the endpoint (the cascade would take the
        # endpoint first): the order every webhook path locks in.
        session.execute(webhook_delivery.lock_in_order(
            WebhookDelivery.endpoint_id == endpoint.id, for_delete=True))
        session.execute(delete(WebhookEndpoint).where(WebhookEndpoint.id == endpoint.id)
                        .execution_options(synchronize_session=False))
    db.session.expunge(endpoint)
    endpoint.deleted = True
    return endpoint


def rotate_secret(ctx: Context, endpoint_id: str,
                  expires_in: int = DEFAULT_OVERLAP) -> WebhookEndpoint:
    """A new secret (returned once); the previous one keeps signing for `expires_in` s.

    :raises NotFound: no such endpoint.
    :raises InvalidRequest: `expires_in` out of range.
    """
    if isinstance(expires_in, bool) or not isinstance(expires_in, int) or \
            not 0 <= expires_in <= MAX_OVERLAP:
        raise InvalidRequest(f"expiresInSeconds must be an integer from 0 to {MAX_OVERLAP}.",
                             param="expiresInSeconds")
    endpoint = get(ctx, endpoint_id)
    now, secret = clock.now(), new_secret()
    stamp = clock.isoformat(now) or ""
    kept = [s for s in webhook_delivery.read_secrets(endpoint)
            if s.get("expiresAt") is None or s["expiresAt"] > stamp]
    if kept:  # the current one now expires; older ones keep their own expiry
        until = clock.isoformat(now + timedelta(seconds=expires_in)) or ""
        kept[0] = {"secret": kept[0]["secret"], "expiresAt": until}
    kept = [s for s in kept if s["expiresAt"] > stamp][:2]
    with transaction():
        endpoint.secrets_encrypted = _seal([{"secret": secret, "expiresAt": None}, *kept])
        endpoint.updated_at = now
    endpoint.secret = secret
    return endpoint


def list_deliveries(ctx: Context, endpoint_id: str, *, status: str | None = None,
                    limit: int = pagination.DEFAULT_LIMIT, cursor: str | None = None
                    ) -> pagination.Page[WebhookDelivery]:
    """The endpoint's deliveries, newest first, with their attempts.

    :raises NotFound: no such endpoint.
    :raises InvalidRequest: bad status, limit or cursor.
    """
    endpoint = get(ctx, endpoint_id)
    if status is not None and status not in DELIVERY_STATUSES:
        raise InvalidRequest("status must be pending, succeeded or failed.", param="status")
    scope = WebhookDelivery.endpoint_id == endpoint.id
    # The page's attempts in one query (a lazy load per delivery would be N+1).
    query = select(WebhookDelivery).where(scope).options(
        selectinload(WebhookDelivery.attempt_log))
    if status is not None:
        query = query.where(WebhookDelivery.status == status)
    return pagination.paginate(query, WebhookDelivery.id,
                               select(WebhookDelivery.id).where(scope), limit=limit,
                               cursor=cursor)


def get_delivery(ctx: Context, endpoint_id: str, delivery_id: str) -> WebhookDelivery:
    """:raises NotFound: no such delivery of this endpoint."""
    endpoint = get(ctx, endpoint_id)
    return find_or_404(WebhookDelivery, delivery_id, prefix="whdl", what="webhook delivery",
                       param="deliveryId", endpoint_id=endpoint.id)


def resend(ctx: Context, endpoint_id: str, delivery_id: str) -> WebhookDelivery:
    """Send a delivery again now, with a fresh retry schedule (same `webhook-id`).

    :raises NotFound: no such delivery of this endpoint (also: deleted meanwhile).
    :raises Conflict: the endpoint is disabled (`endpoint_disabled`).
    """
    get_delivery(ctx, endpoint_id, delivery_id)
    now = clock.now()
    with transaction() as session:
        # The delivery, then its endpoint: the order a deletion locks them in.
        won = changed_rows(session, sql_update(WebhookDelivery).where(
            WebhookDelivery.id == delivery_id, WebhookDelivery.endpoint_id == endpoint_id)
            .values(status="pending", attempts=0, next_attempt_at=now, failure_code=None,
                    updated_at=now).execution_options(synchronize_session=False))
        status = session.scalar(select(WebhookEndpoint.status).where(
            WebhookEndpoint.id == endpoint_id).with_for_update(read=True, key_share=True))
        if won != 1 or status is None:
            raise NotFound(f"No such webhook delivery: {delivery_id}", param="deliveryId")
        if status != "enabled":
            raise Conflict("The endpoint is disabled; enable it before resending.",
                           code="endpoint_disabled")
        enqueue_after_commit(session, events.DELIVER_TASK, endpoint_id)
    return get_delivery(ctx, endpoint_id, delivery_id)


def new_secret() -> str:
    """`whsec_` + base64 of 32 random bytes (the Standard Webhooks form)."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def _seal(items: list[dict[str, Any]]) -> bytes:
    return vault.encrypt(json.dumps(items).encode())


def _scope(ctx: Context) -> tuple[Any, ...]:
    return (WebhookEndpoint.organization_id == ctx.organization_id,
            WebhookEndpoint.environment == ctx.environment)


def _check_url(ctx: Context, url: Any) -> str:
    if not isinstance(url, str) or not 1 <= len(url) <= MAX_URL or not url.isprintable() \
            or url != url.strip():
        raise InvalidRequest(f"url must be an absolute URL of at most {MAX_URL} characters.",
                             param="url")
    problem = http.url_problem(url, require_https=ctx.environment == "live")
    if problem is not None:
        raise InvalidRequest(problem, code="url_invalid", param="url")
    if http.literal_host_blocked(url, bool(settings.get(
            "WEBHOOKS_ALLOW_PRIVATE_NETWORKS"))):
        raise InvalidRequest("The URL names a loopback, private or link-local address, "
                             "which deliveries may not reach. (A server that should deliver "
                             "to its own network sets WEBHOOKS_ALLOW_PRIVATE_NETWORKS=1.)",
                             code="url_not_allowed", param="url")
    return url


def _unique_url(ctx: Context, url: str) -> None:
    taken = db.session.scalar(select(WebhookEndpoint.id).where(
        *_scope(ctx), WebhookEndpoint.url == url).limit(1))
    if taken is not None:
        raise InvalidRequest(f"Another endpoint of this environment has this URL ({taken}).",
                             code="url_in_use", param="url")


def _check_events(chosen: Any) -> list[str]:
    if not isinstance(chosen, list) or not chosen or \
            not all(isinstance(e, str) for e in chosen):
        raise InvalidRequest("enabledEvents must be a non-empty list of event types, or "
                             '["*"] for all.', param="enabledEvents")
    unknown = [e for e in chosen if e != "*" and e not in events.EVENT_TYPES]
    if unknown:
        raise InvalidRequest(f"Unknown event type: {unknown[0]}.", code="unknown_event_type",
                             param="enabledEvents")
    if "*" in chosen and len(set(chosen)) > 1:
        raise InvalidRequest('"*" (all events) cannot be combined with event types.',
                             param="enabledEvents")
    return list(dict.fromkeys(chosen))


def _check_description(description: Any) -> str | None:
    if description is None:
        return None
    if not isinstance(description, str) or len(description) > 200:
        raise InvalidRequest("description must be text of at most 200 characters.",
                             param="description")
    return description
