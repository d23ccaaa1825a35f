"""Marshmallow schemas for bulk jobs, with the documented examples."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate, validates_schema

from webapp.api.schemas import (
    ErrorDetail,
    PageQuery,
    Strict,
    StrictInteger,
    Timestamp,
    constant,
    prefixed,
)
from webapp.domain.update_notice import NOTIFICATION_MODES
from webapp.errors import InvalidRequest
from webapp.services import bulk

_ITEMS = ("issue: what POST /v1/passes takes (templateId may be left out) plus an optional "
          "externalId; update: passId plus what PATCH /v1/passes/{id} takes but "
          "notificationMode; void: passId; adjust_balance: passId or externalId (with the "
          "job's templateId), amount, reason, reference. At most 10,000 items; each is "
          "checked when it "
          "runs, and a bad one fails alone (see the results).")


# What each operation takes besides `operation`.
_MEMBERS = {"issue": ("templateId", "items"), "update": ("items", "notificationMode"),
            "void": ("items",), "upgrade": ("templateId", "toRevision", "notificationMode"),
            "adjust_balance": ("templateId", "items", "notificationMode")}


class BulkJobCreate(Strict):
    """The whole body's shape: each member's type, then what the operation takes (each item
    is checked when it runs)."""

    operation = fields.String(required=True, metadata={"enum": list(bulk.OPERATIONS)})
    templateId = fields.String(validate=validate.Length(1, 64), metadata={
        "description": "issue and upgrade: the template; adjust_balance: the template whose "
                       "passes items name by externalId", "examples": ["tmpl_01jf3v7k..."]})
    items = fields.List(fields.Dict(), metadata={
        "description": _ITEMS, "maxItems": bulk.MAX_ITEMS, "minItems": 1})
    notificationMode = fields.String(validate=validate.OneOf(NOTIFICATION_MODES), metadata={
        "description": "update, upgrade and adjust_balance: silent (default) or notify the "
                       "holders"})
    toRevision = StrictInteger(validate=validate.Range(1, 2**31 - 1), metadata={
        "description": "upgrade: the revision to move the template's active passes to; "
                       "default the latest"})

    @validates_schema
    def _fits_operation(self, data: dict[str, Any], **_kwargs: Any) -> None:
        """Runs once every member has its type. Raises the API's error itself: these
        answers have codes of their own (`unknown_operation`, `no_items`, ...).

        :raises InvalidRequest: unknown operation, a member the operation does not take, bad
            items, no templateId where the operation needs one.
        """
        operation = data["operation"]
        if operation not in bulk.OPERATIONS:
            raise InvalidRequest(f"operation must be one of {', '.join(bulk.OPERATIONS)}.",
                                 code="unknown_operation", param="operation")
        for name in data:
            if name != "operation" and name not in _MEMBERS[operation]:
                raise InvalidRequest(f"Received unknown parameter: {name} ({operation} jobs "
                                     f"take {', '.join(_MEMBERS[operation])}).",
                                     code="parameter_unknown", param=name)
        if operation != "upgrade":
            _check_items(data.get("items"))
        if operation in ("issue", "upgrade") and "templateId" not in data:
            raise InvalidRequest("templateId is required.", code="parameter_missing",
                                 param="templateId")


def _check_items(items: list[dict[str, Any]] | None) -> None:
    """:raises InvalidRequest: no items, none, or more than a job takes."""
    if items is None:
        raise InvalidRequest("items is required.", code="parameter_missing", param="items")
    if not items:
        raise InvalidRequest("items must hold at least one item.", code="no_items",
                             param="items")
    if len(items) > bulk.MAX_ITEMS:
        raise InvalidRequest(f"A bulk job takes at most {bulk.MAX_ITEMS:,} items; this one has "
                             f"{len(items):,}. Split it into several jobs.",
                             code="too_many_items", param="items")


class BulkJobListQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(bulk.STATUSES))


class BulkJobResultsQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(bulk.ITEM_STATUSES))
    cursor = fields.String(validate=validate.Length(1, 64), metadata={
        "description": "nextCursor of the previous page (the last index shown)"})


class BulkJobCounts(Schema):
    total = fields.Integer(required=True)
    succeeded = fields.Integer(required=True)
    failed = fields.Integer(required=True)
    canceled = fields.Integer(required=True)
    pending = fields.Integer(required=True)

    class Meta:
        ordered = True


class BulkJob(Schema):
    object = constant("bulk_job")
    id = prefixed("bjob")
    operation = fields.String(required=True, metadata={"enum": list(bulk.OPERATIONS)})
    status = fields.String(required=True, metadata={"enum": list(bulk.STATUSES)})
    templateId = fields.String(required=True, allow_none=True)
    toRevision = fields.Integer(required=True, allow_none=True)
    notificationMode = fields.Raw(required=True, metadata={"oneOf": [
        {"type": "string", "enum": list(NOTIFICATION_MODES)}, {"type": "null"}]})
    environment = fields.String(required=True, metadata={"enum": ["test", "live"]})
    counts = fields.Nested(BulkJobCounts, required=True)
    createdAt = Timestamp(required=True)
    startedAt = Timestamp(required=True, allow_none=True)
    finishedAt = Timestamp(required=True, allow_none=True)

    class Meta:
        ordered = True


class BulkJobResult(Schema):
    index = fields.Integer(required=True, metadata={"description": "the item's place, from 0"})
    externalId = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, metadata={"enum": list(bulk.ITEM_STATUSES)})
    passId = fields.String(required=True, allow_none=True, metadata={
        "description": "the pass issued, changed or found (existing)"})
    existing = fields.Boolean(required=True, metadata={
        "description": "issue: the externalId had this pass already; nothing was issued"})
    error = fields.Nested(ErrorDetail, required=True, allow_none=True, metadata={
        "description": "a failed item's error, as the single endpoint would answer it"})

    class Meta:
        ordered = True



EXAMPLE_CREATE = {
    "operation": "issue", "templateId": "tmpl_01jf3v7k2m4p6r8t0v2x4z6b8d",
    "items": [{"externalId": "member-10442", "holderName": "Ada Lovelace",
               "fieldValues": {"member": "10442"}},
              {"externalId": "member-10443", "holderName": "Alan Turing",
               "fieldValues": {"member": "10443"}}]}
EXAMPLE = {
    "object": "bulk_job", "id": "bjob_01jf3x2a4c6e8g0j2l4n6q8s0u", "operation": "issue",
    "status": "queued", "templateId": "tmpl_01jf3v7k2m4p6r8t0v2x4z6b8d", "toRevision": None,
    "notificationMode": None, "environment": "test",
    "counts": {"total": 2, "succeeded": 0, "failed": 0, "canceled": 0, "pending": 2},
    "createdAt": "2026-11-25T19:02:11.000Z", "startedAt": None, "finishedAt": None}
EXAMPLE_RESULTS = {
    "object": "list", "hasMore": False, "nextCursor": None, "data": [
        {"index": 0, "externalId": "member-10442", "status": "succeeded",
         "passId": "pass_01jf3x2b5d7f9h1k3m5p7r9t1v", "existing": False, "error": None},
        {"index": 1, "externalId": "member-10443", "status": "failed", "passId": None,
         "existing": False, "error": {
             "type": "invalid_request_error", "code": "required_field_missing",
             "message": "fieldValues.member is required.", "param": "fieldValues.member"}}]}
TOO_MANY_EXAMPLE = {
    "error": {"type": "invalid_request_error", "code": "too_many_items",
              "message": "A bulk job takes at most 10,000 items; this one has 12,000. Split "
                         "it into several jobs.", "param": "items"},
    "requestId": "req_01jf3w3d6f8h0k2m4n6q8s0t2w"}
