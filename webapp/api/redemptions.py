"""/v1 check-in: redeem a pass, list its redemptions, redeem what a scanner read."""

from __future__ import annotations

from typing import Any

from flask import g

from webapp.api import bp
from webapp.api import pass_schemas as ps
from webapp.api import redemption_schemas as s
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.requests import json_body, load, query
from webapp.api.schemas import PageQuery
from webapp.services.redemptions import checkin

_create = s.RedemptionCreate()
_scan = s.ScanCreate()
_REFUSALS = (404, 409)


@bp.post("/passes/<pass_id>/redemptions")
@doc("Redeem pass", permission=("redemptions", "write"), body=s.RedemptionCreate,
     response=s.Redemption, status=201, errors=_REFUSALS,
     examples={201: s.EXAMPLE, 409: s.REFUSAL_EXAMPLE})
@idempotent
def redeem_pass(pass_id: str) -> Any:
    p = load(_create, json_body(optional=True))
    redemption = checkin.redeem(g.ctx, pass_id, source="api", location=p.get("location"))
    return checkin.wire(redemption), 201


@bp.get("/passes/<pass_id>/redemptions")
@doc("List pass redemptions", permission=("redemptions", "read"), query=PageQuery,
     response=s.Redemption, many=True, errors=(404,))
def list_pass_redemptions(pass_id: str) -> Any:
    q = query(PageQuery())
    page = checkin.list_(g.ctx, pass_id, limit=q["limit"], cursor=q.get("cursor"))
    return {"object": "list", "data": [checkin.wire(r) for r in page.data],
            "hasMore": page.has_more, "nextCursor": page.next_cursor}


@bp.post("/scans")
@doc("Redeem a scanned code", permission=("redemptions", "write"), body=s.ScanCreate,
     response=s.ScanResult, status=201, errors=_REFUSALS,
     examples={409: s.REFUSAL_EXAMPLE})
@idempotent
def scan_code() -> Any:
    p = load(_scan, json_body())
    redemption = checkin.scan(g.ctx, p["code"], source="api", location=p.get("location"))
    return {**checkin.wire(redemption), "pass": ps.dump_pass(redemption.pass_)}, 201
