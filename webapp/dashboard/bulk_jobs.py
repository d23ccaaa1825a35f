"""Bulk jobs: import passes from a CSV file on a template (upload, match columns, preview
each row's problems, run), change or void many of a template's passes at once, move them to
its latest design, and each job's progress and results as CSV.

The uploaded file is kept in the database between the steps (`services.bulk.uploads`): the
browser cannot send a file input back after the page changes, the preview must show the very
rows the run will issue, and the next step may reach another node.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, flash, make_response, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp.dashboard import ENV, bp, csv_import, ctx, forms, nav
from webapp.dashboard.htmx import go, render
from webapp.dashboard.once import once_per_form
from webapp.domain import balances as ledger_kinds
from webapp.errors import InvalidRequest, NotFound, ServiceError
from webapp.services import bulk
from webapp.services.bulk import uploads
from webapp.services.passes import issuing, queries, views
from webapp.services.templates import history, revisions

SHOWN_HOLDERS = 10  # the passes a change or void lists before it starts
nav.add("Jobs", "dashboard.jobs_index", 25)

RESULTS_HEADER = ["row", "externalId", "result", "problem", "passId", "shortId",
                  "distributionUrl", "holderName", "holderEmail", "problemCode"]


@bp.get(f"/{ENV}/templates/<template_id>/import")
def templates_import(template_id: str) -> Response:
    template = revisions.get(ctx(), template_id)
    return _upload_page(template)


def _upload_page(template: Any, status: int = 200, problem: str | None = None) -> Response:
    """The upload form, with the file's bounds (columns, rows, and the request size limit)."""
    max_mb = (current_app.config.get("MAX_CONTENT_LENGTH") or 0) // (1024 * 1024)
    return render("dashboard/imports/upload.html", None, status, template=template,
                  max_rows=csv_import.MAX_ROWS, max_columns=csv_import.MAX_COLUMNS,
                  max_mb=max_mb, problem=problem)


@bp.post(f"/{ENV}/templates/<template_id>/import")
@once_per_form
def templates_import_upload(template_id: str) -> BaseResponse:
    """Read the file; kept, it opens the column matching, else the upload page says why."""
    template = revisions.get(ctx(), template_id)
    upload = request.files.get("file")
    data = upload.read() if upload else b""
    try:
        if not data:
            raise csv_import.CsvProblem("Choose a CSV file to upload.")
        csv_import.read(data)
    except csv_import.CsvProblem as exc:
        return _upload_page(template, 422, exc.message)
    upload_id = uploads.save(ctx(), template.id, data)
    return go(url_for("dashboard.templates_import_map", template_id=template.id,
                      upload_id=upload_id))


def _upload(template_id: str, upload_id: str) -> tuple[Any, csv_import.Table]:
    """The template and the kept file's table.

    :raises NotFound: no such template, or no upload of this user for it.
    """
    template = revisions.get(ctx(), template_id)
    data = uploads.load(ctx(), template.id, upload_id)
    if data is None:
        raise NotFound("This upload is gone: it is used once, and kept for an hour. "
                       "Upload the file again.")
    return template, csv_import.read(data)


@bp.get(f"/{ENV}/templates/<template_id>/import/<upload_id>")
def templates_import_map(template_id: str, upload_id: str) -> Response:
    template, table = _upload(template_id, upload_id)
    mode = _mode()
    wanted = csv_import.targets_for(template.definition, mode)
    return _mapping(template, upload_id, table, csv_import.suggest(table.headers, wanted),
                    mode=mode)


@bp.post(f"/{ENV}/templates/<template_id>/import/<upload_id>/preview")
def templates_import_preview(template_id: str, upload_id: str) -> Response:
    """The preview again, for the columns the selects now name (nothing is written)."""
    template, table = _upload(template_id, upload_id)
    mode = _mode()
    wanted = csv_import.targets_for(template.definition, mode)
    if request.form.get("mode-changed"):  # the columns are matched again for the new inputs
        return _mapping(template, upload_id, table,
                        csv_import.suggest(table.headers, wanted), mode=mode)
    return _mapping(template, upload_id, table,
                    csv_import.mapping_from(request.form, wanted, len(table.headers)),
                    mode=mode)


def _mode() -> str:
    """What the file's rows do: issue passes (default) or move balances (`adjust`)."""
    mode = request.values.get("mode", "issue")
    return mode if mode in csv_import.MODES else "issue"


def _mapping(template: Any, upload_id: str, table: csv_import.Table, mapping: dict[str, int],
             status: int = 200, problem: str | None = None, mode: str = "issue") -> Response:
    """The column selects, then every row checked: how many have problems, and the first
    rows and the first rows with a problem, each with its words."""
    wanted = csv_import.targets_for(template.definition, mode)
    adjusting = wanted and wanted[0].name == "externalId" and mode == "adjust"
    rows = (_checked_moves if adjusting else _checked_rows)(template.id, table, mapping, wanted)
    bad = [row for row in rows if row["problem"]]
    shown = {row["number"]: row for row in rows[:csv_import.PREVIEW_ROWS]} | {
        row["number"]: row for row in bad[:csv_import.PREVIEW_ROWS]}
    return render("dashboard/imports/map.html", "dashboard/imports/_map.html", status,
                  template=template, upload_id=upload_id, table=table, wanted=wanted,
                  mapping=mapping, problem=problem, words=csv_import.OUTCOMES,
                  mapping_problems=csv_import.mapping_problems(mapping, wanted),
                  rows=[shown[number] for number in sorted(shown)], bad=bad,
                  mode="adjust" if adjusting else "issue",
                  balances=ledger_kinds.balance_kind(template.definition.get("type")))


def _checked_moves(template_id: str, table: csv_import.Table, mapping: dict[str, int],
                   wanted: list[csv_import.Target]) -> list[dict[str, Any]]:
    """Every row of a balance import: its problem (no such External ID, no amount), else
    the pass it moves."""
    bodies = [csv_import.adjust_item(row, mapping, wanted) for row in table.rows]
    found = queries.external_pass_ids(ctx(), template_id, [
        body["externalId"] for body in bodies if body.get("externalId")])
    out = []
    for i, (row, body) in enumerate(zip(table.rows, bodies, strict=True)):
        problem = None
        if not isinstance(body.get("amount"), int) or body["amount"] == 0:
            problem = f"{wanted[1].label} is not an amount (like 50, -20, or 12.50 for money)."
        elif body.get("externalId") not in found:
            problem = "No pass of this template has this External ID."
        out.append({"number": i + 1, "problem": problem, "existing": None,
                    "cells": [row[mapping[t.name]] if t.name in mapping else ""
                              for t in wanted]})
    return out


def _checked_rows(template_id: str, table: csv_import.Table, mapping: dict[str, int],
                  wanted: list[csv_import.Target]) -> list[dict[str, Any]]:
    """Every row as it would be issued: its values per input, and its problem (the issue
    service's own checks, a dry run) or the pass its externalId already has."""
    bodies = [csv_import.item(row, mapping, wanted) for row in table.rows]
    problems = [csv_import.length_problem(body) for body in bodies]
    checked = [i for i, found in enumerate(problems) if found is None]
    errors = issuing.check_issue_all(ctx(), [csv_import.issue_request(template_id, bodies[i])
                                             for i in checked])
    for i, error in zip(checked, errors, strict=True):
        if error is not None:
            problems[i] = _in_words(error, wanted)
    existing = queries.external_pass_ids(ctx(), template_id, [
        body["externalId"] for body in bodies if body.get("externalId")])
    return [{"number": i + 1, "problem": problems[i],
             "cells": [row[mapping[t.name]] if t.name in mapping else "" for t in wanted],
             "existing": None if problems[i] else existing.get(bodies[i].get("externalId") or "")}
            for i, row in enumerate(table.rows)]


def _in_words(exc: ServiceError, wanted: list[csv_import.Target]) -> str:
    """A service error with the input's label for its parameter ("Points must be a
    number." for "fieldValues.points must be a number.")."""
    return csv_import.in_words(exc.message, exc.param, wanted)


@bp.post(f"/{ENV}/templates/<template_id>/import/<upload_id>/run")
@once_per_form
def templates_import_run(template_id: str, upload_id: str) -> BaseResponse:
    """Start the bulk job that issues a pass per row; the upload is then forgotten."""
    template, table = _upload(template_id, upload_id)
    mode = _mode()
    wanted = csv_import.targets_for(template.definition, mode)
    adjusting = mode == "adjust" and wanted[0].name == "externalId"
    mapping = csv_import.mapping_from(request.form, wanted, len(table.headers))
    if csv_import.mapping_problems(mapping, wanted):
        return _mapping(template, upload_id, table, mapping, 422, mode=mode,
                        problem="Not started: choose a column for each required input.")
    make = csv_import.adjust_item if adjusting else csv_import.item
    items = [make(row, mapping, wanted) for row in table.rows]
    try:
        job = bulk.create(ctx(), "adjust_balance" if adjusting else "issue",
                          {"templateId": template.id, "items": items})
    except InvalidRequest as exc:  # e.g. the template was archived meanwhile
        return _mapping(template, upload_id, table, mapping, 422, problem=exc.message,
                        mode=mode)
    uploads.discard(ctx(), template.id, upload_id)
    return go(url_for("dashboard.jobs_show", job_id=job.id))


@bp.route(f"/{ENV}/templates/<template_id>/upgrade", methods=["GET", "POST"])
@once_per_form
def templates_upgrade(template_id: str) -> BaseResponse:
    """Confirm, then move every active pass on an older revision to the current design."""
    template = revisions.get(ctx(), template_id)
    outdated = history.passes_on_older_revisions(ctx(), template.id)
    if request.method == "GET" or not outdated:
        return render("dashboard/imports/upgrade.html", None, 200, template=template,
                      outdated=outdated)
    mode = "notify" if request.form.get("notification_mode") == "notify" else "silent"
    job = bulk.create(ctx(), "upgrade", {"templateId": template.id, "notificationMode": mode})
    flash(f"Moving {outdated} pass{'es' * (outdated != 1)} to revision {job.to_revision}.")
    return go(url_for("dashboard.jobs_show", job_id=job.id))


@bp.route(f"/{ENV}/templates/<template_id>/change", methods=["GET", "POST"])
@once_per_form
def templates_change(template_id: str) -> BaseResponse:
    """Set values on, or void, the template's active passes (all, or those a search finds):
    an `update` or `void` bulk job of their IDs, as the API would take it."""
    template = revisions.get(ctx(), template_id)
    fields = forms.per_pass_fields(template)
    search = request.values.get("q", "").strip()[:200]
    pass_ids = queries.ids_matching(ctx(), template_id=template.id, status="active",
                                    search=search or None, limit=bulk.MAX_ITEMS + 1)
    if request.method == "GET":
        return _change_page(template, fields, search, pass_ids)
    action = request.form.get("action")
    values = forms.typed_values(request.form, fields)
    problem = _change_problem(action, values, pass_ids, request.form.get("confirm_count", ""))
    if problem is not None:
        return _change_page(template, fields, search, pass_ids, 422, problem=problem,
                            values=forms.form_values(request.form))
    if action == "void":
        job = bulk.create(ctx(), "void", {"items": [{"passId": i} for i in pass_ids]})
    else:
        mode = "notify" if request.form.get("notification_mode") == "notify" else "silent"
        job = bulk.create(ctx(), "update", {"notificationMode": mode, "items": [
            {"passId": i, "fieldValues": values} for i in pass_ids]})
    verb = "Voiding" if action == "void" else "Changing"
    flash(f"{verb} {len(pass_ids):,} pass{'es' * (len(pass_ids) != 1)} of {template.name}.")
    return go(url_for("dashboard.jobs_show", job_id=job.id))


def _change_problem(action: str | None, values: dict[str, Any], pass_ids: list[str],
                    confirmed: str) -> str | None:
    """Why the change cannot start; voiding several passes needs their count typed."""
    count = len(pass_ids)
    if count > bulk.MAX_ITEMS:
        return (f"More than {bulk.MAX_ITEMS:,} passes match: narrow them down with a "
                "search, one job at a time.")
    if not pass_ids:
        return "No active pass matches: nothing to change."
    if action not in ("update", "void"):
        return "Choose what to do: set values or void."
    if action == "update" and not values:
        return "Type at least one new value (empty inputs leave a value as it is)."
    if action == "void" and count > 1 and confirmed.strip() != str(count):
        return (f"Not voided: type {count} (the number of passes that match now) to "
                f"confirm voiding {count} passes.")
    return None


def _change_page(template: Any, fields: list[dict[str, Any]], search: str,
                 pass_ids: list[str], status: int = 200, **extra: Any) -> Response:
    first = queries.find_all(ctx(), pass_ids[:SHOWN_HOLDERS])
    return render("dashboard/imports/change.html", None, status, template=template,
                  fields=fields, search=search, matching=len(pass_ids),
                  first=[first[i] for i in pass_ids[:SHOWN_HOLDERS] if i in first],
                  too_many=len(pass_ids) > bulk.MAX_ITEMS, max_items=bulk.MAX_ITEMS, **extra)


@bp.get(f"/{ENV}/jobs")
def jobs_index() -> Response:
    page = bulk.list_(ctx(), limit=50)
    return render("dashboard/imports/jobs.html", None, 200, jobs=page.data,
                  names=_template_names())


def _template_names() -> dict[str, str]:
    return {t.id: t.name for archived in (False, True)
            for t in revisions.list_(ctx(), archived=archived, limit=100).data}


@bp.get(f"/{ENV}/jobs/<job_id>")
def jobs_show(job_id: str) -> Response:
    job = bulk.get(ctx(), job_id)
    return render("dashboard/imports/job.html", None, 200, job=job,
                  template_name=_template_names().get(job.template_id or ""))


@bp.get(f"/{ENV}/jobs/<job_id>/progress")
def jobs_progress(job_id: str) -> Response:
    """The progress bar and counts; the page asks again every second until the job ends."""
    return render("dashboard/imports/_progress.html", None, 200, job=bulk.get(ctx(), job_id))


@bp.get(f"/{ENV}/jobs/<job_id>/results.csv")
def jobs_results(job_id: str) -> Response:
    """Every item's outcome in the preview's words: its row, and the pass (its IDs, holder
    link, holder) or the problem."""
    job = bulk.get(ctx(), job_id)
    wanted = _targets(job.template_id)
    done = csv_import.DONE.get(job.operation, "Done")
    rows: list[list[Any]] = [RESULTS_HEADER]
    cursor = None
    while True:
        page = bulk.results(ctx(), job.id, limit=100, cursor=cursor)
        passes = queries.find_all(ctx(), [item.pass_id for item in page.data if item.pass_id])
        rows += [_result_row(item, passes.get(item.pass_id or ""), wanted, done)
                 for item in page.data]
        if not page.next_cursor:
            break
        cursor = page.next_cursor
    # A BOM, so that Excel reads the file as UTF-8 (names with accents stay whole).
    response = make_response("\ufeff" + csv_import.write(rows))
    response.content_type = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{job.id}-results.csv"'
    return response


def _targets(template_id: str | None) -> list[csv_import.Target]:
    """The inputs of the job's template (their labels name a problem's input)."""
    try:
        return csv_import.targets(revisions.get(ctx(), template_id).definition or {}) \
            if template_id else []
    except NotFound:
        return []


def _result_row(item: Any, issued: Any, wanted: list[csv_import.Target],
                done: str) -> list[Any]:
    error = item.error or {}
    outcome = "existing" if item.existing else item.status
    problem = csv_import.in_words(error["message"], error.get("param"), wanted) \
        if error.get("message") else ""
    pass_columns = [issued.id, issued.short_id, views.distribution_url(issued.short_id),
                    issued.holder_name, issued.holder_email] if issued else \
        [item.pass_id, "", "", "", ""]
    words = done if outcome == "succeeded" else csv_import.RESULTS.get(outcome, outcome)
    return [item.index + 1, item.external_id, words, problem, *pass_columns,
            error.get("code")]
