"""Marshmallow schemas for bulk jobs, with the documented examples."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

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
from webapp.services import bulk

_ITEMS = ("issue: what POST /v1/passes takes (templateId may be left out) plus an optional "
          "externalId; update: passId plus what PATCH /v1/passes/{id} takes but "
          "notificationMode; void: passId. At most 10,000 items; each is checked when it "
          "runs, and a bad one fails alone (see the results).")


class BulkJobCreate(Strict):
    operation = fields.String(required=True, metadata={"enum": list(bulk.OPERATIONS)})
    templateId = fields.String(validate=validate.Length(1, 64), metadata={
        "description": "issue and upgrade: the template", "examples": ["tmpl_01jf3v7k..."]})
    items = fields.List(fields.Dict(), metadata={
        "description": _ITEMS, "maxItems": bulk.MAX_ITEMS, "minItems": 1})
    notificationMode = fields.String(validate=validate.OneOf(NOTIFICATION_MODES), metadata={
        "description": "update and upgrade: silent (default) or notify the holders"})
    toRevision = StrictInteger(validate=validate.Range(1, 2**31 - 1), metadata={
        "description": "upgrade: the revision to move the template's active passes to; "
                       "default the latest"})


class BulkJobListQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(bulk.STATUSES))


class BulkJobResultsQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(bulk.ITEM_STATUSES))
    cursor = fields.String(validate=validate.Length(1, 64), metadata={
        "description": "nextCursor of the previous page (the last index shown)"})


class Counts(Schema):
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
    notificationMode = fields.String(required=True, allow_none=True)
    environment = fields.String(required=True, metadata={"enum": ["test", "live"]})
    counts = fields.Nested(Counts, required=True)
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
