"""Insights: the environment's home page (the funnel and the per-day charts), the same for
one template, and a CSV of the numbers shown.

The numbers are `insights.summary`'s, the function behind `GET /v1/insights`, called with
the same filters, so the page, its CSV and the API always agree.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime
from typing import Any

from flask import Response, make_response, request
from werkzeug.datastructures import MultiDict

from webapp.dashboard import ENV, bp, charts, ctx, nav
from webapp.dashboard.csv_import import safe_cell
from webapp.dashboard.htmx import render
from webapp.errors import InvalidRequest
from webapp.services import insights
from webapp.services.credentials import identities
from webapp.services.passes import queries
from webapp.services.templates import revisions

nav.add("Overview", "dashboard.insights_home", 5)

FILTERS = ("from", "to", "template", "platform", "groupBy")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def filters(args: MultiDict[str, str]) -> dict[str, str]:
    """The filters as typed in the form or the address (blank when not given)."""
    return {name: args.get(name, "").strip() for name in FILTERS}


def _day(text: str, name: str) -> date | None:
    """A `YYYY-MM-DD` day of the filter `name`, or None when blank.

    :raises InvalidRequest: not such a day.
    """
    if not text:
        return None
    try:
        if _DAY.fullmatch(text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise InvalidRequest(f"'{name}' must be a day written YYYY-MM-DD, e.g. 2026-11-25.",
                         param=name)


def summary(chosen: dict[str, str]) -> dict[str, Any]:
    """The insights answer for these filters, as `GET /v1/insights` gives it.

    :raises InvalidRequest: a bad day, range, platform or grouping.
    :raises NotFound: the template is not this organization's.
    """
    return insights.summary(ctx(), start=_day(chosen["from"], "from"),
                            end=_day(chosen["to"], "to"),
                            template_id=chosen["template"] or None,
                            platform=chosen["platform"] or None,
                            group_by=chosen["groupBy"] or "day")


@bp.get(f"/{ENV}/")
def insights_home() -> Response:
    return _page(filters(request.args), None)


@bp.get(f"/{ENV}/templates/<template_id>/insights")
def templates_insights(template_id: str) -> Response:
    template = revisions.get(ctx(), template_id)
    return _page({**filters(request.args), "template": template.id}, template)


def _page(chosen: dict[str, str], template: Any | None) -> Response:
    """The page for these filters; a bad filter answers 400 with the form and the reason."""
    data, error, error_param = None, None, None
    try:
        data = summary(chosen)
    except InvalidRequest as exc:
        error, error_param = exc.message, exc.param
    page = "dashboard/insights/template.html" if template else "dashboard/insights/home.html"
    return render(page, None, 400 if error else 200, data=data, error=error,
                  error_param=error_param, chosen=chosen, template=template, charts=charts,
                  first_pass=not queries.list_(ctx(), limit=1).data,
                  template_choices=_template_choices() if template is None else [],
                  csv_args={k: v for k, v in chosen.items() if v},
                  demo=identities.demo_limits())


def _template_choices() -> list[Any]:
    return revisions.list_(ctx(), limit=100).data + \
        revisions.list_(ctx(), archived=True, limit=100).data


@bp.get(f"/{ENV}/insights.csv")
def insights_csv() -> Response:
    """The page's numbers as CSV: a row per day (template, platform) and a total row."""
    chosen = filters(request.args)
    try:
        data = summary(chosen)
    except InvalidRequest as exc:
        response = make_response(f"{exc.message}\n", 400)
        response.mimetype = "text/plain"
        return response
    response = make_response(to_csv(data))
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = (
        f"attachment; filename=insights-{ctx().environment}-{data['from']}-{data['to']}.csv")
    return response


def to_csv(data: dict[str, Any]) -> str:
    """The series and the totals of an insights answer as CSV (counts as the API names
    them; `apple.added` is the `byPlatform` split)."""
    keys = {"day": ["date"], "template": ["templateId", "templateName"],
            "platform": ["platform"]}[data["groupBy"]]
    split = [f"{p}.{c}" for p in ("apple", "google") for c in charts.COUNTS] \
        if data["groupBy"] != "platform" else []
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*keys, *charts.COUNTS, *split])
    for row in [*data["series"], {**data["totals"], keys[0]: "total"}]:
        by = row.get("byPlatform", {})
        writer.writerow([safe_cell(row.get(k)) for k in keys] + [row[c] for c in charts.COUNTS]
                        + [by[name.split(".")[0]][name.split(".")[1]] for name in split])
    return out.getvalue()


_REPEATED = ("viewed", "add_intent")  # a run of these is one line with its count


def pass_activity(pass_id: str) -> list[dict[str, Any]]:
    """The pass's timeline (`insights.timeline`), newest first, for its page: `when` as a
    time, and a run of page views (or of one wallet's add intents) as one entry with its
    `count`.

    :raises NotFound: no such pass.
    """
    entries: list[dict[str, Any]] = []
    for entry in reversed(insights.timeline(ctx(), pass_id)):
        last = entries[-1] if entries else None
        if last and entry["type"] in _REPEATED and \
                (last["type"], last["platform"]) == (entry["type"], entry["platform"]):
            last["count"] += 1
            continue
        entries.append({**entry, "count": 1,
                        "when": datetime.fromisoformat(entry["at"].replace("Z", "+00:00"))})
    return entries
