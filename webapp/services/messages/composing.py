"""Recording a message: its text and audience checked, sent now (a job hands it out) or at
its `sendAt` (the sweep starts it); cancelling a scheduled one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy import update as sql_update

from webapp import clock, ids
from webapp.db.transaction import changed_rows, enqueue_after_commit, transaction
from webapp.domain import messages as rules
from webapp.domain import tags as tag_rules
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.extensions import db
from webapp.models import Message, Pass
from webapp.services.context import Context
from webapp.services.messages import reading
from webapp.services.passes import queries as pass_queries
from webapp.services.templates import revisions

SEND_TASK = "send_message"


@dataclass(frozen=True)
class Compose:
    header: str
    body: str
    audience: dict[str, Any]  # {"passIds": [...]} or any of templateId, tag, search
    send_at: str | None = None


def create(ctx: Context, req: Compose) -> Message:
    """Record a message: sent at once (a job hands it out after the commit), or scheduled.

    :raises InvalidRequest: text too long or empty, a bad audience or sendAt.
    :raises NotFound: a pass or template of the audience is not in this scope.
    """
    for name, value, limit in (("header", req.header, rules.HEADER_MAX),
                               ("body", req.body, rules.BODY_MAX)):
        _raise(rules.text_problem(name, value, limit))
    now = clock.now()
    send_at, problem = (None, None) if req.send_at is None else rules.send_time(req.send_at, now)
    _raise(problem)
    audience = checked_audience(ctx, req.audience)
    message = Message(
        id=ids.new_id("msg"), organization_id=ctx.organization_id, environment=ctx.environment,
        source=ctx.source, header=req.header, body=req.body, audience=audience,
        status="scheduled" if send_at else "sending", send_at=send_at,
        audience_size=audience_size(ctx, audience), processed=0, skipped={},
        created_at=now, updated_at=now, started_at=None if send_at else now)
    with transaction() as session:
        session.add(message)
        if send_at is None:
            enqueue_after_commit(session, SEND_TASK, message.id)
    return reading.shown(message)


def checked_audience(ctx: Context, audience: dict[str, Any]) -> dict[str, Any]:
    """The audience as stored: pass IDs once each, in order; filters normalised (the tag in
    lower case, the search trimmed); members left out are not stored.

    :raises InvalidRequest: passIds and filters together, neither, a bad tag.
    :raises NotFound: a pass (`audience.passIds.<i>`) or template not in this scope.
    """
    _raise(rules.audience_problem(audience))
    if "passIds" in audience:
        wanted = list(dict.fromkeys(audience["passIds"]))
        found = pass_queries.find_all(ctx, wanted)
        for index, pass_id in enumerate(audience["passIds"]):
            if pass_id not in found:
                raise NotFound(f"No such pass: {pass_id}", param=f"audience.passIds.{index}")
        return {"passIds": wanted}
    checked: dict[str, Any] = {}
    if audience.get("templateId") is not None:
        revisions.get(ctx, audience["templateId"])  # 404 for another organization's
        checked["templateId"] = audience["templateId"]
    if audience.get("tag") is not None:
        tag = tag_rules.normal(audience["tag"])
        tag_problem = tag_rules.problem_of(tag, "audience.tag")
        if tag_problem is not None:
            raise InvalidRequest(tag_problem.message, code=tag_problem.code,
                                 param="audience.tag")
        checked["tag"] = tag
    if audience.get("search") is not None and audience["search"].strip():
        checked["search"] = audience["search"].strip()
    if not checked:
        _raise(rules.Problem("audience_invalid", "Name the audience: passIds, or at least "
                             "one of templateId, tag and search.", "audience"))
    return checked


def audience_size(ctx: Context, audience: dict[str, Any]) -> int:
    """How many passes the (checked) audience names now."""
    if "passIds" in audience:
        return len(audience["passIds"])
    return db.session.scalar(select(func.count()).select_from(
        audience_query(ctx, audience).subquery())) or 0


def audience_query(ctx: Context, audience: dict[str, Any]) -> Any:
    """The IDs of the passes a filter audience names (as `GET /v1/passes` finds them)."""
    return pass_queries.matching(select(Pass.id), ctx, template_id=audience.get("templateId"),
                                 tag=audience.get("tag"), search=audience.get("search"))


def cancel(ctx: Context, message_id: str) -> Message:
    """Cancel a scheduled message (one whose sending has not begun).

    :raises NotFound: no such message.
    :raises Conflict: it is sending, sent or canceled already (`message_not_scheduled`).
    """
    message = reading.find(ctx, message_id)
    now = clock.now()
    with transaction() as session:
        won = changed_rows(session, sql_update(Message).where(
            Message.id == message.id, Message.status == "scheduled")
            .values(status="canceled", canceled_at=now, updated_at=now)
            .execution_options(synchronize_session=False))
        if won != 1:
            raise Conflict("Only a scheduled message can be canceled; this one is "
                           f"{message.status}.", code="message_not_scheduled")
        session.refresh(message)
    return reading.shown(message)


def _raise(problem: rules.Problem | None) -> None:
    if problem is not None:
        raise InvalidRequest(problem.message, code=problem.code, param=problem.param)
