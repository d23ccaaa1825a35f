"""/v1/messages: send a text to pass holders, now or later; see and cancel messages."""

from __future__ import annotations

from typing import Any

from flask import g

from webapp.api import bp
from webapp.api import message_schemas as s
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.requests import json_body, load, query
from webapp.services import messages
from webapp.services.messages import wire

_create = s.MessageCreate()


@bp.post("/messages")
@doc("Send message", permission=("passes", "write"), body=s.MessageCreate,
     response=s.Message, status=202, errors=(404,))
@idempotent
def create_message() -> Any:
    p = load(_create, json_body())
    req = messages.Compose(header=p["header"], body=p["body"], audience=p["audience"],
                           send_at=p.get("sendAt"))
    return wire.message(messages.create(g.ctx, req)), 202


@bp.get("/messages")
@doc("List messages", permission=("passes", "read"), query=s.MessageListQuery,
     response=s.Message, many=True)
def list_messages() -> Any:
    q = query(s.MessageListQuery())
    page = messages.list_(g.ctx, status=q.get("status"), limit=q["limit"],
                          cursor=q.get("cursor"))
    return {"object": "list", "data": [wire.message(m) for m in page.data],
            "hasMore": page.has_more, "nextCursor": page.next_cursor}


@bp.get("/messages/<message_id>")
@doc("Get message", permission=("passes", "read"), response=s.Message, errors=(404,))
def get_message(message_id: str) -> Any:
    return wire.message(messages.get(g.ctx, message_id))


@bp.post("/messages/<message_id>/cancel")
@doc("Cancel message", permission=("passes", "write"), response=s.Message, errors=(404, 409))
@idempotent
def cancel_message(message_id: str) -> Any:
    return wire.message(messages.cancel(g.ctx, message_id))
