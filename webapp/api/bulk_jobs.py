"""/v1/bulk-jobs: issue, update, void or upgrade many passes in the background."""

from __future__ import annotations

from typing import Any

from flask import Response, g

from webapp.api import bp
from webapp.api import bulk_job_schemas as s
from webapp.api import errors as wire
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.requests import MAX_JSON_BODY, json_body, load, query
from webapp.config import MAX_CONTENT_LENGTH
from webapp.domain.permissions import Need, allows
from webapp.i18n import select_locale
from webapp.services import bulk

_create = s.BulkJobCreate()
# 10,000 items of what POST /v1/passes takes outgrow one pass's body limit.
MAX_BULK_BODY = max(MAX_JSON_BODY, MAX_CONTENT_LENGTH)
_PASSES_WRITE = Need("passes", "write")


@bp.post("/bulk-jobs")
@doc("Create bulk job", permission=("bulk_jobs", "write"), body=s.BulkJobCreate,
     response=s.BulkJob, status=202, errors=(403, 404),
     examples={202: s.EXAMPLE, 400: s.TOO_MANY_EXAMPLE})
@idempotent
def create_bulk_job() -> Any:
    p = load(_create, json_body(max_bytes=MAX_BULK_BODY))
    if not allows(g.ctx.permissions, _PASSES_WRITE):  # a job changes passes
        return wire.insufficient_scope(_PASSES_WRITE.refusal())
    operation = p.pop("operation")
    job = bulk.create(g.ctx, operation, p, locale=select_locale())
    return bulk.wire(job), 202


@bp.get("/bulk-jobs")
@doc("List bulk jobs", permission=("bulk_jobs", "read"), query=s.BulkJobListQuery,
     response=s.BulkJob, many=True)
def list_bulk_jobs() -> Any:
    q = query(s.BulkJobListQuery())
    page = bulk.list_(g.ctx, status=q.get("status"), limit=q["limit"], cursor=q.get("cursor"))
    return {"object": "list", "data": [bulk.wire(job) for job in page.data],
            "hasMore": page.has_more, "nextCursor": page.next_cursor}


@bp.get("/bulk-jobs/<job_id>")
@doc("Get bulk job", permission=("bulk_jobs", "read"), response=s.BulkJob, errors=(404,))
def get_bulk_job(job_id: str) -> Any:
    return bulk.wire(bulk.get(g.ctx, job_id))


@bp.get("/bulk-jobs/<job_id>/results")
@doc("List bulk job results", permission=("bulk_jobs", "read"),
     query=s.BulkJobResultsQuery, response=s.BulkJobResult, many=True, errors=(404,),
     examples={200: s.EXAMPLE_RESULTS})
def list_bulk_job_results(job_id: str) -> Any:
    q = query(s.BulkJobResultsQuery())
    page = bulk.results(g.ctx, job_id, status=q.get("status"), limit=q["limit"],
                        cursor=q.get("cursor"))
    return {"object": "list", "data": [bulk.wire_item(item) for item in page.data],
            "hasMore": page.has_more, "nextCursor": page.next_cursor}


@bp.post("/bulk-jobs/<job_id>/cancel")
@doc("Cancel bulk job", permission=("bulk_jobs", "write"), response=s.BulkJob,
     errors=(404, 409))
@idempotent
def cancel_bulk_job(job_id: str) -> Response | Any:
    return bulk.wire(bulk.cancel(g.ctx, job_id))
