"""Running a bulk job: its pending items, a chunk at a time, each chunk one transaction.

A chunk is applied by the pass services the single-item endpoints use, with their rules:
`issuing.issue_all`, `changes.update_all` and `revision_move.move_all` check each item on its
own and write those that pass together; `changes.void` voids and `ledger.adjust` moves a
balance one item at a time. Their blocks
are SAVEPOINTs inside the chunk's transaction, and a bad item fails alone. The items' results
are written in the same transaction, so a worker killed mid-chunk leaves the chunk's items
pending and unapplied: whoever resumes the job starts at the first pending item, and nothing
is applied twice. The worker holds a lease on the job, renewed with every chunk; the sweep
hands a job whose lease ran out to another worker.

Jobs take turns: the job task applies one chunk, then queues the job again behind whatever
else waits, so jobs of several organizations interleave chunk by chunk; and an organization's
jobs in one environment run one after another (a later one waits, doing nothing, until the
earlier ends and wakes it). So one organization's 40,000 queued items delay another's job by
about a chunk of each job that is running, not by all of them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy import update as sql_update
from sqlalchemy.orm import Session

from webapp import clock, metrics, settings
from webapp.db import statistics
from webapp.db.transaction import (
    changed_rows,
    count_after_commit,
    enqueue_after_commit,
    transaction,
)
from webapp.errors import InvalidRequest, NotFound, ServiceError
from webapp.extensions import db
from webapp.models import BulkJob, BulkJobItem, Pass
from webapp.services.balances import ledger
from webapp.services.bulk import jobs
from webapp.services.context import Context
from webapp.services.passes import changes, issuing, queries, revision_move
from webapp.services.webhooks import events

log = logging.getLogger("webapp.bulk")

CHUNK_SIZE = 500
# A breath between chunks: SQLite's writers' lock is not first come, first served, and
# without it the runner takes the lock straight back while requests wait for the whole job.
PAUSE_BETWEEN_CHUNKS = 0.01  # seconds


@dataclass(frozen=True)
class ItemRules:
    """How the front door reads an item and writes an error (the job task passes the API's):

    `parse(operation, item)` -> the service function's arguments, or raises the
    single endpoint's InvalidRequest; `error(exc)` -> the error as the API shows it.
    """

    parse: Callable[[str, dict[str, Any]], dict[str, Any]]
    error: Callable[[ServiceError], dict[str, Any]]


@dataclass
class _Result:
    index: int
    status: str
    pass_id: str | None = None
    existing: bool = False
    error: dict[str, Any] | None = None


def run(job_id: str, rules: ItemRules) -> None:
    """Give the job its turn: apply its next chunk and queue it again, or, with nothing
    left, mark it completed and emit `bulk_job.completed`. Safe to run twice at once.

    An unexpected error (not an item's service error) rolls its chunk back and fails the
    job: its pending items are canceled. A killed worker is no error: its lease runs out and
    the sweep hands the job to another.
    """
    try:
        ended = _turn(job_id, rules)
    except Exception:
        log.exception("bulk job %s stopped by an unexpected error", job_id)
        _fail(job_id)
        ended = True
    if ended:  # up to 10,000 new passes: the next job's lookups are planned for them
        statistics.analyze("passes", "bulk_job_items")
    else:
        time.sleep(PAUSE_BETWEEN_CHUNKS)


def _turn(job_id: str, rules: ItemRules) -> bool:
    """Apply the next chunk in one transaction and queue the job's next turn; whether the job
    ended (False also when it is not its turn, or it ended before)."""
    lease_seconds = float(settings.get("JOBS_LEASE_SECONDS"))
    with transaction() as session:
        job = session.scalar(select(BulkJob).where(BulkJob.id == job_id).with_for_update()
                             .execution_options(populate_existing=True))
        if job is None or job.status not in jobs.UNFINISHED or jobs.waits_its_turn(job):
            return False
        now = clock.now()
        if job.status == "queued":
            job.status, job.started_at = "running", now
        job.lease_until, job.updated_at = jobs.lease(lease_seconds), now
        items = list(session.scalars(
            select(BulkJobItem).where(BulkJobItem.job_id == job.id,
                                      BulkJobItem.status == "pending")
            .order_by(BulkJobItem.index).limit(CHUNK_SIZE)))
        if not items:
            _finish(session, job)
            return True
        results = _APPLY[job.operation](_context(job), job, items, rules)
        _record(session, job, results)
        if len(items) < CHUNK_SIZE and len(results) == len(items):  # that was the last
            _finish(session, job)
            return True
        enqueue_after_commit(session, jobs.RUN_TASK, job.id)
    return False


def _context(job: BulkJob) -> Context:
    """The job's creator acting again (passes keep the job's source)."""
    return Context(organization_id=job.organization_id, environment=job.environment,
                   actor=job.source, api_key_id=job.created_by_api_key_id,
                   user_id=job.created_by_user_id)


def _issue(ctx: Context, job: BulkJob, items: list[BulkJobItem], rules: ItemRules
           ) -> list[_Result]:
    """The chunk's items through `issuing.issue_all`. An externalId that has a pass
    reports it; an item repeating an externalId of the chunk waits for the first one's
    outcome (taken: it reports that pass; failed: it is issued itself)."""
    template_id = cast(str, job.template_id)
    taken = _taken(job, {item.external_id for item in items} - {None})
    results: dict[int, _Result] = {}
    waiting = items
    while waiting:
        batch: list[tuple[BulkJobItem, issuing.IssueRequest]] = []
        later, seen = [], set()
        for item in waiting:
            external_id = item.external_id
            if external_id is not None and external_id in taken:
                results[item.index] = _Result(item.index, "succeeded", taken[external_id],
                                              existing=True)
            elif external_id is not None and external_id in seen:
                later.append(item)
            else:
                try:
                    batch.append((item, _issue_request(job, template_id, item, rules)))
                except ServiceError as exc:
                    results[item.index] = _Result(item.index, "failed", error=rules.error(exc))
                    continue
                seen.add(external_id)
        issued = issuing.issue_all(ctx, [req for _, req in batch])
        for (item, _req), outcome in zip(batch, issued, strict=True):
            results[item.index] = _issued(ctx, template_id, item, outcome, rules)
            if results[item.index].status == "succeeded" and item.external_id is not None:
                taken[item.external_id] = cast(str, results[item.index].pass_id)
        waiting = later
    return [results[item.index] for item in items]


def _taken(job: BulkJob, external_ids: set[str | None]) -> dict[str, str]:
    """The pass IDs of the externalIds that have a pass already, in one query."""
    if not external_ids:
        return {}
    rows = db.session.execute(select(Pass.external_id, Pass.id).where(
        Pass.template_id == job.template_id, Pass.environment == job.environment,
        Pass.organization_id == job.organization_id, Pass.external_id.in_(external_ids)))
    return {str(external_id): pass_id for external_id, pass_id in rows}


def _issue_request(job: BulkJob, template_id: str, item: BulkJobItem, rules: ItemRules
                   ) -> issuing.IssueRequest:
    """:raises InvalidRequest: the item is not what `POST /v1/passes` takes, or names
    another template."""
    fields = rules.parse("issue", item.input)
    if fields.pop("template_id", template_id) != template_id:
        raise InvalidRequest("An item's templateId must be the job's (or be left out).",
                             param="templateId")
    return issuing.IssueRequest(template_id=template_id, email_locale=job.locale, **fields)


def _issued(ctx: Context, template_id: str, item: BulkJobItem,
            outcome: Pass | ServiceError, rules: ItemRules) -> _Result:
    if isinstance(outcome, Pass):
        return _Result(item.index, "succeeded", outcome.id)
    if outcome.code == "external_id_exists" and item.external_id is not None:
        existing = queries.external_pass_id(ctx, template_id, item.external_id)
        return _Result(item.index, "succeeded", existing, existing=True)
    return _Result(item.index, "failed", error=rules.error(outcome))


def _update(ctx: Context, job: BulkJob, items: list[BulkJobItem], rules: ItemRules
            ) -> list[_Result]:
    requests: dict[int, changes.UpdateRequest] = {}
    results: dict[int, _Result] = {}
    for item in items:
        try:
            fields = rules.parse("update", item.input)
        except ServiceError as exc:
            results[item.index] = _Result(item.index, "failed", error=rules.error(exc))
            continue
        requests[item.index] = changes.UpdateRequest(
            fields["pass_id"], fields["field_values"], fields["dates"], fields.get("tags"))
    done = changes.update_all(ctx, list(requests.values()),
                              job.notification_mode or "silent")
    for index, outcome in zip(requests, done, strict=True):
        results[index] = _changed(index, outcome, rules)
    return [results[item.index] for item in items]


def _upgrade(ctx: Context, job: BulkJob, items: list[BulkJobItem], rules: ItemRules
             ) -> list[_Result]:
    pass_ids = [cast(str, item.pass_id) for item in items]
    done = revision_move.move_all(ctx, pass_ids, cast(int, job.to_revision),
                                  job.notification_mode or "silent")
    return [_changed(item.index, outcome, rules, item.pass_id)
            for item, outcome in zip(items, done, strict=True)]


def _changed(index: int, outcome: changes.Updated | ServiceError, rules: ItemRules,
             pass_id: str | None = None) -> _Result:
    if isinstance(outcome, ServiceError):
        return _Result(index, "failed", pass_id, error=rules.error(outcome))
    return _Result(index, "succeeded", outcome.pass_.id)


def _void(ctx: Context, job: BulkJob, items: list[BulkJobItem], rules: ItemRules
          ) -> list[_Result]:
    def apply(item: BulkJobItem) -> str:
        return changes.void(ctx, rules.parse("void", item.input)["pass_id"]).id
    return [_each(item, apply, rules) for item in items]


def _each(item: BulkJobItem, apply: Callable[[BulkJobItem], str], rules: ItemRules
          ) -> _Result:
    """One item through `apply`; a service error fails it alone."""
    try:
        return _Result(item.index, "succeeded", apply(item))
    except ServiceError as exc:
        return _Result(item.index, "failed", item.pass_id, error=rules.error(exc))


def _adjust(ctx: Context, job: BulkJob, items: list[BulkJobItem], rules: ItemRules
            ) -> list[_Result]:
    """Each item's balance transaction (source `bulk`, the job's notificationMode), its pass
    named by passId or by externalId (the job's template's passes)."""
    taken = _taken(job, {item.external_id for item in items} - {None}) if job.template_id \
        else {}

    def apply(item: BulkJobItem) -> str:
        fields = rules.parse("adjust_balance", item.input)
        pass_id = fields["pass_id"] or _external(job, fields["external_id"], taken)
        movement = ledger.adjust(ctx, pass_id, amount=fields["amount"], source="bulk",
                                 reason=fields["reason"], reference=fields["reference"],
                                 notification_mode=job.notification_mode or "silent")
        return movement.pass_id
    return [_each(item, apply, rules) for item in items]


def _external(job: BulkJob, external_id: str, taken: dict[str, str]) -> str:
    """The pass with this externalId in the job's template.

    :raises InvalidRequest: the job has no template. :raises NotFound: no such pass.
    """
    if job.template_id is None:
        raise InvalidRequest("An item can name its pass by externalId only when the job has "
                             "a templateId.", code="parameter_missing", param="templateId")
    if external_id not in taken:
        raise NotFound(f"No pass of the job's template has the externalId {external_id}.",
                       param="externalId")
    return taken[external_id]


_APPLY = {"issue": _issue, "update": _update, "void": _void, "upgrade": _upgrade,
          "adjust_balance": _adjust}


def _record(session: Session, job: BulkJob, results: list[_Result]) -> None:
    """Write the chunk's results and the job's counts (in the chunk's transaction)."""
    table = cast(Table, BulkJobItem.__table__)
    session.connection().execute(
        sql_update(table).where(table.c.job_id == bindparam("b_job"),
                                table.c.index == bindparam("b_index"))
        .values(status=bindparam("b_status"), pass_id=bindparam("b_pass"),
                existing=bindparam("b_existing"), error=bindparam("b_error")),
        [{"b_job": job.id, "b_index": r.index, "b_status": r.status, "b_pass": r.pass_id,
          "b_existing": r.existing, "b_error": r.error} for r in results])
    job.succeeded += sum(1 for r in results if r.status == "succeeded")
    job.failed += sum(1 for r in results if r.status == "failed")
    for status in ("succeeded", "failed"):
        done = sum(1 for r in results if r.status == status)
        if done:
            count_after_commit(session, partial(
                metrics.BULK_ITEMS.labels(job.operation, status).inc, done))


def _finish(session: Session, job: BulkJob) -> None:
    now = clock.now()
    job.status, job.finished_at, job.updated_at, job.lease_until = "completed", now, now, None
    _emit_finished(session, job)
    jobs.wake_next(session, job.organization_id, job.environment)
    log.info("bulk job %s completed: %s succeeded, %s failed", job.id, job.succeeded,
             job.failed)


def _fail(job_id: str) -> None:
    with transaction() as session:
        job = jobs.locked(job_id)
        if job.status in jobs.FINISHED:
            return
        canceled = changed_rows(session, sql_update(BulkJobItem).where(
            BulkJobItem.job_id == job.id, BulkJobItem.status == "pending")
            .values(status="canceled").execution_options(synchronize_session=False))
        now = clock.now()
        job.canceled += canceled
        job.status, job.finished_at, job.updated_at, job.lease_until = "failed", now, now, None
        _emit_finished(session, job)
        jobs.wake_next(session, job.organization_id, job.environment)


def _emit_finished(session: Session, job: BulkJob) -> None:
    events.emit(session, organization_id=job.organization_id, environment=job.environment,
                type="bulk_job.completed", data={"object": jobs.wire(job)})
