"""/v1/passes/<id>/erase and /export: a holder's right to erasure and to a copy of their
data (issue 33)."""

from __future__ import annotations

from typing import Any

from flask import g
from marshmallow import Schema, fields

from webapp.api import balance_schemas as bs
from webapp.api import bp
from webapp.api import pass_schemas as s
from webapp.api import redemption_schemas as rs
from webapp.api import webhook_schemas as ws
from webapp.api.idempotency import idempotent
from webapp.api.openapi import doc
from webapp.api.schemas import Timestamp, constant
from webapp.services.balances import ledger
from webapp.services.passes import erasure, export
from webapp.services.redemptions import checkin
from webapp.services.webhooks import events

_update = s.PassUpdate()


class Installations(Schema):
    apple = fields.List(fields.Dict(), required=True, metadata={
        "description": "devices registered for the pass's updates: deviceLibraryId, "
                       "registeredAt, updatedAt"})
    google = fields.Dict(required=True, allow_none=True, metadata={
        "description": "the pass's Google object: objectId, wallet (saved, removed or "
                       "null), savedAt, removedAt; null without one"})


class SignUp(Schema):
    consent = fields.String(required=True, allow_none=True, metadata={
        "description": "the consent sentence the holder ticked, as the sign-up page showed "
                       "it; null when the page asked for none"})
    consentedAt = Timestamp(required=True, allow_none=True, metadata={
        "description": "when it was ticked"})

    class Meta:
        ordered = True


class PassExport(Schema):
    object = constant("pass_export")
    passObject = fields.Nested(s.Pass, data_key="pass", required=True)
    updates = fields.List(fields.Nested(s.PassUpdate), required=True)
    emails = fields.List(fields.Nested(s.Email), required=True)
    redemptions = fields.List(fields.Nested(rs.Redemption), required=True)
    balanceTransactions = fields.List(fields.Nested(bs.BalanceTransaction), required=True,
                                      metadata={"description": "a loyalty or gift card's "
                                                               "balance movements"})
    events = fields.List(fields.Nested(ws.Event), required=True, metadata={
        "description": "the events about the pass still kept (30 days)"})
    installations = fields.Nested(Installations, required=True)
    activity = fields.List(fields.Dict(), required=True, metadata={
        "description": "page views, add intents, wallet adds and removals: kind, platform, "
                       "at"})
    enrollment = fields.Nested(SignUp, required=True, allow_none=True, metadata={
        "description": "the sign-up that issued the pass (`source: enrollment`); null for "
                       "other passes"})

    class Meta:
        ordered = True


@bp.post("/passes/<pass_id>/erase")
@doc("Erase pass holder data", permission=("passes", "write"), response=s.Pass,
     errors=(404,))
@idempotent
def erase_pass(pass_id: str) -> Any:
    return s.dump_pass(erasure.erase(g.ctx, pass_id))


@bp.get("/passes/<pass_id>/export")
@doc("Export pass holder data", permission=("passes", "read"), response=PassExport,
     errors=(404,))
def export_pass(pass_id: str) -> Any:
    found = export.export(g.ctx, pass_id)
    return {"object": "pass_export", "pass": s.dump_pass(found.pass_),
            "updates": [_update.dump(u) for u in found.updates],
            "emails": [s.dump_email(e) for e in found.emails],
            "redemptions": [checkin.wire(r) for r in found.redemptions],
            "balanceTransactions": [ledger.wire(m) for m in found.balance_transactions],
            "events": [events.body(e) for e in found.events],
            "installations": found.installations, "activity": found.activity,
            "enrollment": found.enrollment}
