"""Bulk jobs: create, read, list, results, cancel, and the wire form of each.

A job and its items are rows; the job task (`jobs.tasks.run_bulk_job`) applies the items
(`bulk.runner`). The request's shape is the front door's to check (the API's
`BulkJobCreate`); each item is checked when it runs, with the rules of the single-item
endpoint, so a bad item fails alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Select, Table, func, insert, literal, or_, select
from sqlalchemy import update as sql_update
from sqlalchemy.orm import Session, aliased

from webapp import clock, ids
from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.db.transaction import changed_rows, enqueue_after_commit, transaction
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.extensions import db
from webapp.models import BulkJob, BulkJobItem, Pass, Template
from webapp.services.context import Context
from webapp.services.templates import revisions

OPERATIONS = ("issue", "update", "void", "upgrade", "adjust_balance")
STATUSES = ("queued", "running", "completed", "failed", "canceled")
ITEM_STATUSES = ("pending", "succeeded", "failed", "canceled")
FINISHED = ("completed", "failed", "canceled")
UNFINISHED = ("queued", "running")
MAX_ITEMS = 10_000
MAX_EXTERNAL_ID = 200
RUN_TASK = "run_bulk_job"


def create(ctx: Context, operation: str, payload: dict[str, Any], *, locale: str = "en"
           ) -> BulkJob:
    """Record a job (queued) and its items; the job task runs it after the commit.

    `payload` is the API body without `operation` (camelCase), of the shape the API's
    `BulkJobCreate` checks; `locale` is the language of emails that `send` items ask for.

    :raises InvalidRequest: archived template; toRevision names no revision.
    :raises NotFound: templateId names no template of the organization.
    """
    items = payload.get("items", [])
    template = None
    if operation in ("issue", "upgrade") or "templateId" in payload:
        template = _template(ctx, payload["templateId"])
        if template.archived:
            raise InvalidRequest("Archived templates cannot be used by bulk jobs.",
                                 code="template_archived", param="templateId")
    mode = payload.get("notificationMode", "silent")
    now = clock.now()
    job = BulkJob(
        id=ids.new_id("bjob"), organization_id=ctx.organization_id,
        environment=ctx.environment, operation=operation, status="queued",
        template_id=template.id if template else None,
        to_revision=_to_revision(template, payload) if operation == "upgrade" else None,
        notification_mode=mode if operation in ("update", "upgrade", "adjust_balance")
        else None,
        locale=locale, source=ctx.source, created_by_api_key_id=ctx.api_key_id,
        created_by_user_id=ctx.user_id, total=len(items), succeeded=0, failed=0, canceled=0,
        created_at=now, updated_at=now)
    with transaction() as session:
        session.add(job)
        session.flush()
        if operation == "upgrade":
            job.total = _add_upgrade_items(job)
        elif items:
            session.connection().execute(insert(cast(Table, BulkJobItem.__table__)), [
                {"job_id": job.id, "index": index, "external_id": _external_id(item),
                 "input": item, "status": "pending", "existing": False}
                for index, item in enumerate(items)])
        enqueue_after_commit(session, RUN_TASK, job.id)
    return job


def _template(ctx: Context, template_id: str) -> Template:
    """:raises NotFound: no such template of the organization."""
    template = None
    if ids.has_prefix(template_id, "tmpl"):
        template = db.session.scalar(select(Template).where(
            Template.id == template_id, Template.organization_id == ctx.organization_id))
    if template is None:
        raise NotFound(f"No such template: {template_id}", param="templateId")
    return template


def _to_revision(template: Template | None, payload: dict[str, Any]) -> int:
    assert template is not None
    revision = payload.get("toRevision")
    if revision is None:
        return template.revision
    if revisions.definition_of(template.id, revision) is None:
        raise InvalidRequest(f"The template has no revision {revision}.",
                             code="revision_not_found", param="toRevision")
    return revision


def _external_id(item: dict[str, Any]) -> str | None:
    """The item's externalId when it is one (else the item fails when it runs)."""
    value = item.get("externalId")
    return value if isinstance(value, str) and 0 < len(value) <= MAX_EXTERNAL_ID else None


def _add_upgrade_items(job: BulkJob) -> int:
    """One item per active pass of the template not on the target revision; how many."""
    index = func.row_number().over(order_by=Pass.id) - 1
    passes = select(literal(job.id), index, Pass.id, literal({}, BulkJobItem.input.type),
                    literal("pending"), literal(False)).where(
        Pass.organization_id == job.organization_id, Pass.environment == job.environment,
        Pass.template_id == job.template_id, Pass.status == "active",
        Pass.template_revision != job.to_revision)
    table = cast(Table, BulkJobItem.__table__)
    columns = ["job_id", "index", "pass_id", "input", "status", "existing"]
    session = db.session()
    session.connection().execute(insert(table).from_select(columns, passes))
    return session.scalar(select(func.count()).where(BulkJobItem.job_id == job.id)) or 0


def get(ctx: Context, job_id: str) -> BulkJob:
    """:raises NotFound: no such bulk job in this organization and environment."""
    return find_or_404(BulkJob, job_id, prefix="bjob", what="bulk job",
                       organization_id=ctx.organization_id, environment=ctx.environment)


def list_(ctx: Context, *, status: str | None = None, limit: int = pagination.DEFAULT_LIMIT,
          cursor: str | None = None) -> pagination.Page[BulkJob]:
    """The environment's bulk jobs, newest first.

    :raises InvalidRequest: bad status, limit or cursor.
    """
    scope = (BulkJob.organization_id == ctx.organization_id,
             BulkJob.environment == ctx.environment)
    query = select(BulkJob).where(*scope)
    if status is not None:
        query = query.where(BulkJob.status == status)
    return pagination.paginate(query, BulkJob.id, select(BulkJob.id).where(*scope),
                               limit=limit, cursor=cursor)


@dataclass(frozen=True)
class ResultsPage:
    """A page of a job's items in index order; `next_cursor` is the last index shown."""

    data: list[BulkJobItem]
    has_more: bool

    @property
    def next_cursor(self) -> str | None:
        return str(self.data[-1].index) if self.has_more and self.data else None


def results(ctx: Context, job_id: str, *, status: str | None = None,
            limit: int = pagination.DEFAULT_LIMIT, cursor: str | None = None) -> ResultsPage:
    """A job's per-item results in index order, after the index `cursor` names.

    :raises NotFound: no such bulk job.
    :raises InvalidRequest: bad limit or cursor.
    """
    job = get(ctx, job_id)
    if not 1 <= limit <= pagination.MAX_LIMIT:
        raise InvalidRequest(f"limit must be an integer from 1 to {pagination.MAX_LIMIT}.",
                             param="limit")
    query = select(BulkJobItem).where(BulkJobItem.job_id == job.id)
    if cursor is not None:
        if not cursor.isdigit() or int(cursor) >= job.total:
            raise InvalidRequest("cursor does not name an item of this list.",
                                 code="invalid_cursor", param="cursor")
        query = query.where(BulkJobItem.index > int(cursor))
    if status is not None:
        query = query.where(BulkJobItem.status == status)
    rows = list(db.session.scalars(query.order_by(BulkJobItem.index).limit(limit + 1)))
    return ResultsPage(data=rows[:limit], has_more=len(rows) > limit)


def cancel(ctx: Context, job_id: str) -> BulkJob:
    """Cancel the items that have not run; a chunk that is running finishes first.

    :raises NotFound: no such bulk job.
    :raises Conflict: the job has finished (`bulk_job_finished`).
    """
    get(ctx, job_id)
    with transaction() as session:
        job = locked(job_id)
        if job.status in FINISHED:
            raise Conflict(f"This bulk job is {job.status} already.", code="bulk_job_finished")
        canceled = changed_rows(session, sql_update(BulkJobItem).where(
            BulkJobItem.job_id == job.id, BulkJobItem.status == "pending")
            .values(status="canceled").execution_options(synchronize_session=False))
        now = clock.now()
        job.canceled += canceled
        job.status, job.finished_at, job.updated_at, job.lease_until = (
            "canceled", now, now, None)
        wake_next(session, job.organization_id, job.environment)
    return job


def locked(job_id: str) -> BulkJob:
    """The job row, read again and locked for this transaction (PostgreSQL; SQLite's
    writers take turns anyway)."""
    job = db.session.scalar(select(BulkJob).where(BulkJob.id == job_id)
                            .with_for_update().execution_options(populate_existing=True))
    if job is None:
        raise NotFound(f"No such bulk job: {job_id}")
    return job


def stale(now: datetime, stale_before: datetime, limit: int) -> list[tuple[str, ...]]:
    """The sweep's source: the job whose turn it is in its organization and environment,
    when its worker's lease ran out or it was never picked up (its job was lost)."""
    rows = db.session.scalars(select(BulkJob.id).where(
        BulkJob.status.in_(UNFINISHED), ~_older_unfinished(BulkJob).exists(),
        or_(BulkJob.lease_until < now,
            (BulkJob.lease_until.is_(None)) & (BulkJob.created_at <= stale_before)),
    ).order_by(BulkJob.id).limit(limit))
    return [(RUN_TASK, row_id) for row_id in rows]


def waits_its_turn(job: BulkJob) -> bool:
    """Whether an older unfinished job of its organization and environment runs first: an
    organization's jobs run one after another, so another organization's job never waits
    behind all of them."""
    return db.session.scalar(select(_older_unfinished(job).exists())) or False


def wake_next(session: Session, organization_id: str, environment: str) -> None:
    """Queue the organization's next unfinished job in this environment (a job ended)."""
    next_id = session.scalar(select(BulkJob.id).where(
        BulkJob.organization_id == organization_id, BulkJob.environment == environment,
        BulkJob.status.in_(UNFINISHED)).order_by(BulkJob.created_at, BulkJob.id).limit(1))
    if next_id is not None:
        enqueue_after_commit(session, RUN_TASK, next_id)


def _older_unfinished(job: Any) -> Select[int]:
    """Unfinished jobs of `job`'s organization and environment created before it (`job` a
    row, or the BulkJob table itself for a correlated subquery)."""
    older = aliased(BulkJob)
    return select(literal(1)).select_from(older).where(
        older.organization_id == job.organization_id, older.environment == job.environment,
        older.status.in_(UNFINISHED),
        or_(older.created_at < job.created_at,
            (older.created_at == job.created_at) & (older.id < job.id)))


def lease(seconds: float) -> datetime:
    """When a lease taken now runs out."""
    return clock.now() + timedelta(seconds=seconds)


def wire(job: BulkJob) -> dict[str, Any]:
    """A job as the API shows it."""
    return {
        "object": "bulk_job", "id": job.id, "operation": job.operation, "status": job.status,
        "templateId": job.template_id, "toRevision": job.to_revision,
        "notificationMode": job.notification_mode, "environment": job.environment,
        "counts": {"total": job.total, "succeeded": job.succeeded, "failed": job.failed,
                   "canceled": job.canceled, "pending": job.pending},
        "createdAt": clock.isoformat(job.created_at),
        "startedAt": clock.isoformat(job.started_at),
        "finishedAt": clock.isoformat(job.finished_at),
    }


def wire_item(item: BulkJobItem) -> dict[str, Any]:
    """One item's result as the API shows it."""
    return {"index": item.index, "externalId": item.external_id, "status": item.status,
            "passId": item.pass_id, "existing": bool(item.existing), "error": item.error}
