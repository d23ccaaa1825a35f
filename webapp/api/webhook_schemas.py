"""Marshmallow schemas for webhook endpoints, their deliveries and events."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from webapp.api.schemas import (
    PageQuery,
    Strict,
    StrictInteger,
    Timestamp,
    constant,
    prefixed,
)
from webapp.services.webhooks.endpoints import DEFAULT_OVERLAP, DELIVERY_STATUSES, MAX_OVERLAP
from webapp.services.webhooks.events import EVENT_TYPES

_EVENTS_FIELD = {"description": 'event types, or ["*"] for all', "minItems": 1,
                 "items": {"type": "string", "enum": ["*", *EVENT_TYPES]}}


# ---- requests --------------------------------------------------------------------------

class EndpointCreate(Strict):
    url = fields.String(required=True, validate=validate.Length(1, 2048),
                        metadata={"format": "uri", "description": "https in live"})
    enabledEvents = fields.List(fields.String(), load_default=lambda: ["*"],
                                metadata=_EVENTS_FIELD)
    description = fields.String(allow_none=True, validate=validate.Length(0, 200))


class EndpointUpdate(Strict):
    url = fields.String(validate=validate.Length(1, 2048),
                        metadata={"format": "uri", "description": "https in live"})
    enabledEvents = fields.List(fields.String(), metadata=_EVENTS_FIELD)
    description = fields.String(allow_none=True, validate=validate.Length(0, 200),
                                metadata={"description": "null clears"})
    status = fields.String(validate=validate.OneOf(("enabled", "disabled")),
                           metadata={"description": "enabling clears the failing streak"})


class RotateSecret(Strict):
    expiresInSeconds = StrictInteger(load_default=DEFAULT_OVERLAP, metadata={
        "minimum": 0, "maximum": MAX_OVERLAP,
        "description": "how long the previous secret keeps signing too; default 24 h"})


class NoMembers(Strict):
    """A body that takes no members (empty, or `{}`)."""


class DeliveryListQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(DELIVERY_STATUSES))


class EventListQuery(PageQuery):
    type = fields.String(validate=validate.OneOf(EVENT_TYPES))


# ---- resources -------------------------------------------------------------------------

class WebhookEndpoint(Schema):
    object = constant("webhook_endpoint")
    id = prefixed("we")
    url = fields.String(required=True, metadata={"format": "uri"})
    description = fields.String(required=True, allow_none=True)
    enabledEvents = fields.List(fields.String(), attribute="enabled_events", required=True,
                                metadata=_EVENTS_FIELD)
    status = fields.String(required=True, metadata={"enum": ["enabled", "disabled"]})
    disabledReason = fields.Raw(attribute="disabled_reason", required=True, metadata={
        "oneOf": [{"type": "string", "enum": ["manual", "failing"]}, {"type": "null"}],
        "description": "failing: 3 days of failed deliveries"})
    environment = fields.String(required=True, metadata={"enum": ["test", "live"]})
    secret = fields.String(metadata={"pattern": "^whsec_",
                                     "description": "only in the create and rotate answers"})
    deleted = fields.Boolean(metadata={"description": "true, only in the delete answer"})
    createdAt = Timestamp(attribute="created_at", required=True)
    updatedAt = Timestamp(attribute="updated_at", required=True)

    class Meta:
        ordered = True

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        """Leave out `secret` and `deleted` where they are not set."""
        data = super().dump(obj, many=many)
        for item in data if many else [data]:
            if item.get("secret") is None:
                item.pop("secret", None)
            if not item.get("deleted"):
                item.pop("deleted", None)
        return data


class AttemptError(Schema):
    code = fields.String(attribute="error_code", required=True, metadata={"enum": [
        "invalid_url", "address_not_allowed", "dns_failed", "timeout", "connection_failed",
        "redirect", "http_status"]})
    message = fields.String(attribute="error_message", required=True, allow_none=True)


class _ErrorOrNull(fields.Nested):
    def get_value(self, obj: Any, attr: str, accessor: Any = None, default: Any = None) -> Any:
        return obj if obj.error_code else None


class Attempt(Schema):
    attemptedAt = Timestamp(attribute="attempted_at", required=True)
    responseStatus = fields.Integer(attribute="response_status", required=True, allow_none=True)
    error = _ErrorOrNull(AttemptError, required=True, allow_none=True)
    durationMs = fields.Integer(attribute="duration_ms", required=True)

    class Meta:
        ordered = True


class WebhookDelivery(Schema):
    object = constant("webhook_delivery")
    id = prefixed("whdl")
    endpointId = prefixed("we", attribute="endpoint_id")
    eventId = prefixed("evt", attribute="event_id")
    eventType = fields.String(attribute="event_type", required=True,
                              metadata={"enum": list(EVENT_TYPES)})
    status = fields.String(required=True, metadata={"enum": list(DELIVERY_STATUSES)})
    failureCode = fields.String(attribute="failure_code", required=True, allow_none=True,
                                metadata={"description": "why it failed without an attempt, "
                                                         "e.g. endpoint_disabled"})
    nextAttemptAt = Timestamp(attribute="next_attempt_at", required=True, allow_none=True)
    attempts = fields.List(fields.Nested(Attempt), attribute="attempt_log", required=True)
    createdAt = Timestamp(attribute="created_at", required=True)
    updatedAt = Timestamp(attribute="updated_at", required=True)

    class Meta:
        ordered = True


class Event(Schema):
    object = constant("event")
    id = prefixed("evt")
    type = fields.String(required=True, metadata={"enum": list(EVENT_TYPES)})
    environment = fields.String(required=True, metadata={"enum": ["test", "live"]})
    createdAt = Timestamp(attribute="created_at", required=True)
    data = fields.Dict(required=True, metadata={
        "description": "object: the pass as in list results (the pass update for "
                       "pass_update.delivered, the email for pass.email_sent and "
                       "pass.email_failed, the endpoint as {object, id, url} for "
                       "webhook_endpoint.test, the event a dashboard user sends to one "
                       "endpoint to try it); wallet: {platform, installations} on "
                       "pass.added_to_wallet and pass.removed_from_wallet; redemption: the "
                       "redemption on pass.redeemed; balanceTransaction: the balance "
                       "transaction on pass.balance_changed; tier: {from, to} (tier names, "
                       "null for none) on pass.tier_changed; object: the bulk job (as "
                       "GET /v1/bulk-jobs/{id} answers it) on bulk_job.completed"})

    class Meta:
        ordered = True
