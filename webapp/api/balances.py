"""/v1 balances: move a pass's balance (earn, spend), list its movements."""

from __future__ import annotations

from typing import Any

from flask import g

from webapp.api import balance_schemas as s
from webapp.api import bp
from webapp.api import pass_schemas as ps
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.requests import json_body, load, query
from webapp.api.schemas import PageQuery
from webapp.services.balances import ledger

_create = s.BalanceTransactionCreate()


@bp.post("/passes/<pass_id>/balance-transactions")
@doc("Create balance transaction", permission=("passes", "write"),
     body=s.BalanceTransactionCreate, response=s.BalanceTransactionResult, status=201,
     errors=(404, 409), examples={201: s.EXAMPLE, 409: s.REFUSAL_EXAMPLE})
@idempotent
def create_balance_transaction(pass_id: str) -> Any:
    p = load(_create, json_body())
    movement = ledger.adjust(g.ctx, pass_id, amount=p["amount"], reason=p.get("reason"),
                             reference=p.get("reference"), source="api",
                             notification_mode=p["notificationMode"])
    return {**ledger.wire(movement), "pass": ps.dump_pass(ledger.shown_pass(movement))}, 201


@bp.get("/passes/<pass_id>/balance-transactions")
@doc("List balance transactions", permission=("passes", "read"), query=PageQuery,
     response=s.BalanceTransaction, many=True, errors=(404,))
def list_balance_transactions(pass_id: str) -> Any:
    q = query(PageQuery())
    page = ledger.list_(g.ctx, pass_id, limit=q["limit"], cursor=q.get("cursor"))
    return {"object": "list", "data": [ledger.wire(m) for m in page.data],
            "hasMore": page.has_more, "nextCursor": page.next_cursor}
