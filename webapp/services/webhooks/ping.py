"""Test events ("Send test event"): a real delivery of a `webhook_endpoint.test` event.

The event is recorded like any other (`GET /v1/events` lists it) and its delivery takes the
same path as every delivery: signed with the endpoint's secret(s), retried on failure, shown
in the endpoint's delivery log. It goes to the chosen endpoint only, whatever that
endpoint's `enabledEvents`, and to no other endpoint.
"""

from __future__ import annotations

from sqlalchemy import select

from webapp import clock, ids
from webapp.db.transaction import enqueue_after_commit, transaction
from webapp.errors import Conflict, NotFound
from webapp.models import Event, WebhookDelivery, WebhookEndpoint
from webapp.services.context import Context
from webapp.services.webhooks import endpoints, events


def send_test_event(ctx: Context, endpoint_id: str) -> WebhookDelivery:
    """Record a `webhook_endpoint.test` event and its delivery to this endpoint; the
    delivery is queued when the transaction commits.

    :raises NotFound: no such endpoint in this organization and environment.
    :raises Conflict: the endpoint is disabled (`endpoint_disabled`).
    """
    endpoint = endpoints.get(ctx, endpoint_id)
    if endpoint.status != "enabled":
        raise Conflict("The endpoint is disabled; enable it before sending a test event.",
                       code="endpoint_disabled")
    now = clock.now()
    event = Event(id=ids.new_id("evt"), organization_id=ctx.organization_id,
                  environment=ctx.environment, type=events.TEST_EVENT, created_at=now,
                  data={"object": {"object": "webhook_endpoint", "id": endpoint.id,
                                   "url": endpoint.url}})
    delivery = WebhookDelivery(
        id=ids.new_id("whdl"), endpoint_id=endpoint.id, event_id=event.id,
        organization_id=ctx.organization_id, environment=ctx.environment,
        event_type=events.TEST_EVENT, status="pending", attempts=0, next_attempt_at=now,
        created_at=now, updated_at=now)
    with transaction() as session:
        # FOR KEY SHARE: an endpoint being deleted is waited for, then not found.
        if session.scalar(select(WebhookEndpoint.id).where(WebhookEndpoint.id == endpoint_id)
                          .with_for_update(read=True, key_share=True)) is None:
            raise NotFound(f"No such webhook endpoint: {endpoint_id}", param="id")
        session.add(event)
        session.flush()  # the event row first: the delivery refers to it
        session.add(delivery)
        enqueue_after_commit(session, events.DELIVER_TASK, endpoint_id)
    return delivery
