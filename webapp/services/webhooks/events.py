"""Events: what happened to an organization's passes, recorded in the same transaction as
the change, for `GET /v1/events` and webhook deliveries (decisions.md section 11).

`emit` is an outbox: it writes the event and one delivery row per subscribed endpoint in
the caller's transaction; the rows are handed to the job queue once that transaction
commits, and the periodic sweep hands over any that were lost. Events are kept 30 days.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from sqlalchemy import ColumnElement, Table, Text, bindparam, insert, select
from sqlalchemy import cast as sql_cast
from sqlalchemy import update as sql_update
from sqlalchemy.orm import Session

from webapp import clock, ids
from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.db.transaction import enqueue_after_commit, transaction
from webapp.models import Event, Pass, PassUpdate, WebhookDelivery, WebhookEndpoint
from webapp.services.context import Context
from webapp.services.webhooks import event_data

# `webhook_endpoint.test` is recorded only by "Send test event" (`webhooks.ping`), for the
# one endpoint it is sent to; `emit` never sends it to the other endpoints.
TEST_EVENT = "webhook_endpoint.test"
EVENT_TYPES = ("pass.added_to_wallet", "pass.removed_from_wallet", "pass.created",
               "pass.updated", "pass.voided", "pass.erased", "pass_update.delivered",
               "pass.email_sent", "pass.email_failed", "pass.redeemed", "pass.balance_changed",
               "pass.tier_changed", "bulk_job.completed", "message.sent", TEST_EVENT)
RETENTION = timedelta(days=30)
DELIVER_TASK = "deliver_webhooks"  # a job per endpoint: jobs.tasks.deliver_webhooks


def emit(session: Session, *, organization_id: str, environment: str, type: str,
         data: dict[str, Any]) -> None:
    """Record an event (`pass.added_to_wallet`, ...) in the caller's transaction."""
    emit_all(session, organization_id=organization_id, environment=environment, type=type,
             datas=[data])


def emit_all(session: Session, *, organization_id: str, environment: str, type: str,
             datas: list[dict[str, Any]]) -> None:
    """Record one event of `type` per `data`, with one statement per table (many passes
    issued at once)."""
    if type not in EVENT_TYPES or type == TEST_EVENT:
        raise ValueError(f"unknown event type {type!r}")
    if not datas:
        return
    now = clock.now()
    event_ids = [ids.new_id("evt") for _ in datas]
    # Plain Core INSERTs with their values as parameters: one cached statement per table.
    connection = session.connection()  # Core statements: the ORM adds nothing here
    connection.execute(_INSERT_EVENT, [
        {"id": event_id, "organization_id": organization_id, "environment": environment,
         "type": type, "data": data, "pass_id": pass_of(data), "created_at": now}
        for event_id, data in zip(event_ids, datas, strict=True)])
    endpoints = connection.execute(_ENABLED_ENDPOINTS, {"organization_id": organization_id,
                                                     "environment": environment})
    deliveries: list[dict[str, Any]] = []
    for endpoint_id, enabled_events, resting_until in endpoints:
        if not subscribed(enabled_events, type):
            continue
        # A resting endpoint (its last attempt failed) gets its new deliveries when it is
        # tried again, not a wasted attempt each.
        due = resting_until if resting_until is not None and resting_until > now else now
        for event_id in event_ids:
            deliveries.append({
                "id": ids.new_id("whdl"), "endpoint_id": endpoint_id, "event_id": event_id,
                "organization_id": organization_id, "environment": environment,
                "event_type": type, "status": "pending", "attempts": 0,
                "next_attempt_at": due, "created_at": now, "updated_at": now})
        if due == now:
            enqueue_after_commit(session, DELIVER_TASK, endpoint_id)
    if deliveries:
        connection.execute(_INSERT_DELIVERY, deliveries)


# Built once: every event runs them. FOR KEY SHARE (PostgreSQL): an endpoint being deleted
# is waited for and then left out, never given a delivery that points at nothing.
_ENABLED_ENDPOINTS = select(WebhookEndpoint.id, WebhookEndpoint.enabled_events,
                            WebhookEndpoint.resting_until).where(
    WebhookEndpoint.organization_id == bindparam("organization_id"),
    WebhookEndpoint.environment == bindparam("environment"),
    WebhookEndpoint.status == "enabled").with_for_update(read=True, key_share=True)
_INSERT_EVENT = insert(cast(Table, Event.__table__))
_INSERT_DELIVERY = insert(cast(Table, WebhookDelivery.__table__))


def subscribed(enabled_events: list[str], type: str) -> bool:
    """Whether an endpoint's `enabledEvents` takes this event type."""
    return "*" in enabled_events or type in enabled_events


def pass_of(data: dict[str, Any]) -> str | None:
    """The pass an event is about: its object's ID when the object is a pass, else the
    object's `passId` (a pass update, an email); None for a bulk job's, a message's or a test
    event. Migration 0025 applies the same rule to the events recorded before it."""
    found = data.get("object")
    if not isinstance(found, dict):
        return None
    pass_id = found.get("id") if found.get("object") == "pass" else found.get("passId")
    return pass_id if isinstance(pass_id, str) else None


def about_pass(session: Session, ctx: Context, pass_id: str) -> list[Event]:
    """The scope's events about a pass, oldest first: those `events.pass_id` names, and those
    that name no pass but mention it (a message sent to it by ID names many passes; a node
    still on the code before migration 0025 writes no `pass_id`). Both through the index of
    `(scope, pass_id)`; events that name no pass are few."""
    scope = (Event.organization_id == ctx.organization_id,
             Event.environment == ctx.environment)
    own = session.scalars(select(Event).where(*scope, Event.pass_id == pass_id))
    mentioning = session.scalars(select(Event).where(
        *scope, Event.pass_id.is_(None),
        sql_cast(Event.data, Text).contains(pass_id, autoescape=True)))
    return sorted([*own, *mentioning], key=lambda event: event.id)


def pass_data(session: Session, item: Pass, **extra: Any) -> dict[str, Any]:
    """An event's `data` for a pass: `object` (as in list results) and any extra members."""
    return {"object": event_data.pass_object(session, item), **extra}


def pass_update_finished(record: PassUpdate) -> None:
    """Once neither wallet is pending, mark the update done and emit
    `pass_update.delivered` (once, however often this runs)."""
    pass_updates_finished([record])


def pass_updates_finished(records: list[PassUpdate]) -> None:
    """`pass_update_finished` for many updates, in one transaction."""
    if not records:
        return
    with transaction() as session:
        current = session.scalars(select(PassUpdate).where(
            PassUpdate.id.in_([r.id for r in records]))
            .execution_options(populate_existing=True)).all()
        ready = [r.id for r in current if r.delivery_state == "pending"
                 and "pending" not in (r.apple_status, r.google_status)]
        if not ready:
            return
        won = set(session.scalars(
            sql_update(PassUpdate).where(PassUpdate.id.in_(ready),
                                         PassUpdate.delivery_state == "pending")
            .values(delivery_state="done", updated_at=clock.now())
            .returning(PassUpdate.id).execution_options(synchronize_session=False)))
        done: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for record in current:
            if record.id in won:
                record.delivery_state = "done"
                done.setdefault((record.organization_id, record.environment), []).append(
                    {"object": event_data.pass_update_object(record)})
        for (organization_id, environment), datas in done.items():
            emit_all(session, organization_id=organization_id, environment=environment,
                     type="pass_update.delivered", datas=datas)


def list_(ctx: Context, *, type: str | None = None, limit: int = pagination.DEFAULT_LIMIT,
          cursor: str | None = None) -> pagination.Page[Event]:
    """The environment's events of the last 30 days, newest first.

    :raises InvalidRequest: bad limit or cursor.
    """
    scope = _scope(ctx)
    query = select(Event).where(*scope)
    if type is not None:
        query = query.where(Event.type == type)
    return pagination.paginate(query, Event.id, select(Event.id).where(*scope), limit=limit,
                               cursor=cursor)


def get(ctx: Context, event_id: str) -> Event:
    """:raises NotFound: no such event in this organization and environment (or too old)."""
    return find_or_404(Event, event_id, prefix="evt", what="event", where=_scope(ctx))


def body(event: Event) -> dict[str, Any]:
    """The event object, as `GET /v1/events/<id>` and webhook deliveries send it."""
    return {"object": "event", "id": event.id, "type": event.type,
            "environment": event.environment, "createdAt": clock.isoformat(event.created_at),
            "data": event.data}


def _scope(ctx: Context) -> tuple[ColumnElement[bool], ...]:
    """The context's organization and environment, within the 30 days kept."""
    return (Event.organization_id == ctx.organization_id, Event.environment == ctx.environment,
            Event.created_at >= clock.now() - RETENTION)

