"""A bulk job's items read with the single-item endpoints' schemas, and their errors in the
API's shape: what the job task hands to `bulk.run` (items are checked when they run)."""

from __future__ import annotations

import json
from typing import Any

from marshmallow import fields, validate

from webapp.api import errors as wire
from webapp.api import pass_schemas as ps
from webapp.api.passes import issue_arguments, update_dates
from webapp.api.requests import load
from webapp.api.schemas import Strict, StrictInteger
from webapp.errors import InvalidRequest, ServiceError
from webapp.services import bulk

_EXTERNAL_ID = {"description": "your own ID of the pass, unique per template and environment: "
                               "an item whose externalId has a pass already reports that pass "
                               "(existing: true) instead of issuing another",
                "examples": ["member-10442"]}
_PASS_ID = {"examples": ["pass_01jf3v9a1b3d5f7h9k1m3p5r7s"]}


class IssueItem(ps.PassCreate):
    """What `POST /v1/passes` takes; templateId may be left out (the job's)."""

    templateId = fields.String(validate=validate.Length(1, 64), metadata={
        "description": "the job's templateId, if given"})
    externalId = fields.String(validate=validate.Length(1, bulk.jobs.MAX_EXTERNAL_ID),
                               metadata=_EXTERNAL_ID)


class UpdateItem(ps.PassUpdateBody):
    """What `PATCH /v1/passes/{id}` takes, with the pass's ID; the job has one
    notificationMode."""

    passId = fields.String(required=True, validate=validate.Length(1, 64), metadata=_PASS_ID)


class VoidItem(Strict):
    passId = fields.String(required=True, validate=validate.Length(1, 64), metadata=_PASS_ID)


class AdjustBalanceItem(Strict):
    """A balance transaction (as POST /v1/passes/{id}/balance-transactions takes it) for the
    pass named by passId, or by externalId (the job's templateId's passes)."""

    passId = fields.String(validate=validate.Length(1, 64), metadata=_PASS_ID)
    externalId = fields.String(validate=validate.Length(1, bulk.jobs.MAX_EXTERNAL_ID),
                               metadata={"description": "instead of passId: the pass of the "
                                                        "job's template with this externalId",
                                         "examples": ["member-10442"]})
    amount = StrictInteger(required=True, validate=validate.Range(-10**12, 10**12))
    reason = fields.String(allow_none=True, validate=validate.Length(0, 100))
    reference = fields.String(allow_none=True, validate=validate.Length(0, 200))


_issue = IssueItem()
_adjust = AdjustBalanceItem()
_update = UpdateItem(exclude=("notificationMode",))
_void = VoidItem()


def parse(operation: str, item: dict[str, Any]) -> dict[str, Any]:
    """An item as its service function's arguments.

    :raises InvalidRequest: what the single endpoint answers for such a body.
    """
    if operation == "issue":
        p = load(_issue, item)
        extra = {"template_id": p["templateId"]} if "templateId" in p else {}
        return {**issue_arguments(p), "external_id": p.get("externalId"), **extra}
    if operation == "update":
        p = load(_update, item)
        return {"pass_id": p["passId"], "field_values": p.get("fieldValues"),
                "dates": update_dates(p), "tags": p.get("tags")}
    if operation == "adjust_balance":
        p = load(_adjust, item)
        if ("passId" in p) == ("externalId" in p):
            raise InvalidRequest("An item names its pass by passId or by externalId (one of "
                                 "them).", code="parameter_missing", param="passId")
        return {"pass_id": p.get("passId"), "external_id": p.get("externalId"),
                "amount": p["amount"], "reason": p.get("reason"),
                "reference": p.get("reference")}
    return {"pass_id": load(_void, item)["passId"]}


def error(exc: ServiceError) -> dict[str, Any]:
    """The `error` member the API answers for `exc` (type, code, message, param)."""
    return dict(json.loads(wire.from_service_error(exc).get_data())["error"])


RULES = bulk.ItemRules(parse=parse, error=error)
