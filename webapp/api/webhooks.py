"""/v1/webhook-endpoints: create (the secret is shown once), list, get, change, delete,
rotate the secret; the endpoint's deliveries with their attempts, and resending one."""

from __future__ import annotations

from typing import Any

from flask import g

from webapp.api import bp
from webapp.api import webhook_schemas as s
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.requests import json_body, load, query
from webapp.api.schemas import PageQuery, list_envelope
from webapp.services.webhooks import endpoints

_endpoint = s.WebhookEndpoint()
_delivery = s.WebhookDelivery()


@bp.post("/webhook-endpoints")
@doc("Create webhook endpoint", permission=("webhooks", "write"),
     body=s.EndpointCreate, response=s.WebhookEndpoint, status=201)
@idempotent
def create_webhook_endpoint() -> Any:
    p = load(s.EndpointCreate(), json_body())
    created = endpoints.create(g.ctx, p["url"], p["enabledEvents"], p.get("description"))
    return _endpoint.dump(created), 201


@bp.get("/webhook-endpoints")
@doc("List webhook endpoints", permission=("webhooks", "read"),
     query=PageQuery, response=s.WebhookEndpoint, many=True)
def list_webhook_endpoints() -> Any:
    q = query(PageQuery())
    return list_envelope(_endpoint, endpoints.list_(g.ctx, limit=q["limit"],
                                                    cursor=q.get("cursor")))


@bp.get("/webhook-endpoints/<endpoint_id>")
@doc("Get webhook endpoint", permission=("webhooks", "read"),
     response=s.WebhookEndpoint, errors=(404,))
def get_webhook_endpoint(endpoint_id: str) -> Any:
    return _endpoint.dump(endpoints.get(g.ctx, endpoint_id))


@bp.patch("/webhook-endpoints/<endpoint_id>")
@doc("Update webhook endpoint", permission=("webhooks", "write"),
     body=s.EndpointUpdate, response=s.WebhookEndpoint,
     errors=(404,))
@idempotent
def update_webhook_endpoint(endpoint_id: str) -> Any:
    p = load(s.EndpointUpdate(), json_body(optional=True))
    changes = endpoints.EndpointChanges(
        url=p.get("url"), enabled_events=p.get("enabledEvents"),
        description=p.get("description"),
        clear_description="description" in p and p["description"] is None,
        status=p.get("status"))
    return _endpoint.dump(endpoints.update(g.ctx, endpoint_id, changes))


@bp.delete("/webhook-endpoints/<endpoint_id>")
@doc("Delete webhook endpoint", permission=("webhooks", "write"),
     response=s.WebhookEndpoint, errors=(404,))
@idempotent
def delete_webhook_endpoint(endpoint_id: str) -> Any:
    return _endpoint.dump(endpoints.remove(g.ctx, endpoint_id))


@bp.post("/webhook-endpoints/<endpoint_id>/rotate-secret")
@doc("Rotate webhook endpoint secret", permission=("webhooks", "write"),
     body=s.RotateSecret, response=s.WebhookEndpoint,
     errors=(404,))
@idempotent
def rotate_webhook_secret(endpoint_id: str) -> Any:
    p = load(s.RotateSecret(), json_body(optional=True))
    return _endpoint.dump(endpoints.rotate_secret(g.ctx, endpoint_id, p["expiresInSeconds"]))


@bp.get("/webhook-endpoints/<endpoint_id>/deliveries")
@doc("List webhook deliveries", permission=("webhooks", "read"),
     query=s.DeliveryListQuery, response=s.WebhookDelivery,
     many=True, errors=(404,))
def list_webhook_deliveries(endpoint_id: str) -> Any:
    q = query(s.DeliveryListQuery())
    page = endpoints.list_deliveries(g.ctx, endpoint_id, status=q.get("status"),
                                     limit=q["limit"], cursor=q.get("cursor"))
    return list_envelope(_delivery, page)


@bp.get("/webhook-endpoints/<endpoint_id>/deliveries/<delivery_id>")
@doc("Get webhook delivery", permission=("webhooks", "read"),
     response=s.WebhookDelivery, errors=(404,))
def get_webhook_delivery(endpoint_id: str, delivery_id: str) -> Any:
    return _delivery.dump(endpoints.get_delivery(g.ctx, endpoint_id, delivery_id))


@bp.post("/webhook-endpoints/<endpoint_id>/deliveries/<delivery_id>/resend")
@doc("Resend webhook delivery", permission=("webhooks", "write"),
     response=s.WebhookDelivery, errors=(404, 409))
@idempotent
def resend_webhook_delivery(endpoint_id: str, delivery_id: str) -> Any:
    load(s.NoMembers(), json_body(optional=True))
    return _delivery.dump(endpoints.resend(g.ctx, endpoint_id, delivery_id))
