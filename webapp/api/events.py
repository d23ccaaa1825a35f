"""/v1/events: what happened to the environment's passes in the last 30 days."""

from __future__ import annotations

from typing import Any

from flask import g

from webapp.api import bp
from webapp.api import webhook_schemas as s
from webapp.api.openapi import doc
from webapp.api.requests import query
from webapp.api.schemas import list_envelope
from webapp.services.webhooks import events

_event = s.Event()


@bp.get("/events")
@doc("List events", permission=("events", "read"),
     query=s.EventListQuery, response=s.Event, many=True)
def list_events() -> Any:
    q = query(s.EventListQuery())
    page = events.list_(g.ctx, type=q.get("type"), limit=q["limit"], cursor=q.get("cursor"))
    return list_envelope(_event, page)


@bp.get("/events/<event_id>")
@doc("Get event", permission=("events", "read"), response=s.Event, errors=(404,))
def get_event(event_id: str) -> Any:
    return _event.dump(events.get(g.ctx, event_id))
