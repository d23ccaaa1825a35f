"""/v1/insights: what happened to the environment's passes, per day, template or wallet."""

from __future__ import annotations

from typing import Any

from flask import g

from webapp.api import bp
from webapp.api import insight_schemas as s
from webapp.api.openapi import doc
from webapp.api.requests import query
from webapp.services import insights


@bp.get("/insights")
@doc("Get insights", permission=("insights", "read"), query=s.InsightsQuery,
     response=s.Insights, errors=(404,), examples={200: s.EXAMPLE})
def get_insights() -> Any:
    q = query(s.InsightsQuery())
    return insights.summary(g.ctx, start=q.get("from_"), end=q.get("to"),
                            template_id=q.get("templateId"), platform=q.get("platform"),
                            group_by=q["groupBy"])
