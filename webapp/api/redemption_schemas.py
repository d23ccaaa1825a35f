"""Marshmallow schemas for redemptions (check-in) and scans, with the documented examples."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from webapp.api.pass_schemas import Pass
from webapp.api.schemas import Strict, Timestamp, constant, prefixed

MAX_LOCATION = 100
MAX_CODE = 2000

_LOCATION = {"description": "where it happened, e.g. a gate; at most 100 characters",
             "examples": ["Gate B"]}


class RedemptionCreate(Strict):
    location = fields.String(allow_none=True, validate=validate.Length(0, MAX_LOCATION),
                             metadata=_LOCATION)


class ScanCreate(Strict):
    code = fields.String(required=True, validate=validate.Length(1, MAX_CODE), metadata={
        "description": "the text the scanned barcode carries: the pass's short ID, its ID, "
                       "its per-pass barcodeValue, or its template's barcode value",
        "examples": ["K7M2QX9D4HRT"]})
    location = fields.String(allow_none=True, validate=validate.Length(0, MAX_LOCATION),
                             metadata=_LOCATION)


class ScannedBy(Schema):
    type = fields.String(required=True, metadata={"enum": ["user", "apiKey"]})
    id = fields.String(required=True, metadata={"examples": ["key_01jf3v8r2m4k6n8p0q2s4t6v8x"]})
    name = fields.String(required=True, allow_none=True, metadata={
        "description": "the staff user's email, or the API key's name",
        "examples": ["Door scanner"]})

    class Meta:
        ordered = True


class Redemption(Schema):
    id = prefixed("rdm")
    object = constant("redemption")
    passId = prefixed("pass")
    redeemedAt = Timestamp(required=True)
    source = fields.String(required=True, metadata={
        "enum": ["api", "scanner"], "description": "api: this API; scanner: the dashboard's "
                                                   "scanner page"})
    location = fields.String(required=True, allow_none=True, metadata=_LOCATION)
    scannedBy = fields.Nested(ScannedBy, required=True, allow_none=True, metadata={
        "description": "who redeemed it: a staff user or an API key"})

    class Meta:
        ordered = True


class ScanResult(Redemption):
    pass_ = fields.Nested(Pass, data_key="pass", required=True, metadata={
        "description": "the pass after the redemption"})


EXAMPLE = {"id": "rdm_01jf3w2c5e7g9j1k3m5p7r9t1v", "object": "redemption",
           "passId": "pass_01jf3v9a1b3d5f7h9k1m3p5r7s", "redeemedAt": "2026-11-25T19:02:11.000Z",
           "source": "api", "location": "Gate B",
           "scannedBy": {"type": "apiKey", "id": "key_01jf3v8r2m4k6n8p0q2s4t6v8x",
                         "name": "Door scanner"}}
REFUSAL_EXAMPLE = {
    "error": {"type": "conflict_error", "code": "already_redeemed",
              "message": "This pass was checked in already, at 2026-11-25T19:02:11.000Z at "
                         "Gate B.",
              "passId": "pass_01jf3v9a1b3d5f7h9k1m3p5r7s", "redemption": EXAMPLE},
    "requestId": "req_01jf3w3d6f8h0k2m4n6q8s0t2w"}
