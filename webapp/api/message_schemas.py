"""Marshmallow schemas for messages to pass holders (issue 33)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from webapp.api.schemas import PageQuery, Strict, Timestamp, constant, prefixed
from webapp.domain import messages as rules

STATUSES = ("scheduled", "sending", "sent", "canceled")
_REASONS = ("why passes were skipped, failed or not notified, by code: pass_voided, "
            "pass_not_found, not_issued_for_wallet, not_in_wallet (no device registered / "
            "nobody saved the pass), notification_quota_exceeded (Google: added without a "
            "notification), or a failure's error code")


class MessageAudience(Strict):
    passIds = fields.List(fields.String(validate=validate.Length(1, 64)), metadata={
        "minItems": 1, "maxItems": rules.PASS_IDS_MAX,
        "description": "these passes of the key's environment; not with the filters"})
    templateId = fields.String(validate=validate.Length(1, 64), metadata={
        "description": "the template's passes (filters combine as GET /v1/passes's)"})
    tag = fields.String(validate=validate.Length(1, 200), metadata={
        "description": "passes with this tag (any case)", "examples": ["vip"]})
    search = fields.String(validate=validate.Length(1, 200), metadata={
        "description": "passes whose holder name, email or short ID contains this"})


class MessageCreate(Strict):
    header = fields.String(required=True, metadata={
        "minLength": 1, "maxLength": rules.HEADER_MAX,
        "description": "the title (Apple: the back field's label and the lock screen's "
                       "prefix; Google: the message's header)"})
    body = fields.String(required=True, metadata={
        "minLength": 1, "maxLength": rules.BODY_MAX, "description": "the text"})
    audience = fields.Nested(MessageAudience, required=True, metadata={
        "description": "passIds, or at least one of templateId, tag and search"})
    sendAt = fields.String(metadata={
        "format": "date-time", "examples": ["2027-06-01T09:00:00+02:00"],
        "description": "when to send (ISO 8601 with an offset), up to 90 days ahead; left "
                       "out, or up to 5 minutes past: now"})


class MessageListQuery(PageQuery):
    status = fields.String(validate=validate.OneOf(STATUSES))


class MessageWalletDelivery(Schema):
    delivered = fields.Integer(required=True, metadata={
        "description": "Apple: APNs took the push; Google: added with a notification"})
    withoutNotification = fields.Integer(required=True, metadata={
        "description": "Google: added as a plain message (the pass's 3 notifications per "
                       "24 hours were spent); Apple: always 0"})
    failed = fields.Integer(required=True)
    skipped = fields.Integer(required=True)
    pending = fields.Integer(required=True)
    reasons = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                          metadata={"description": _REASONS})


class MessageDelivery(Schema):
    apple = fields.Nested(MessageWalletDelivery, required=True)
    google = fields.Nested(MessageWalletDelivery, required=True)


class Message(Schema):
    object = constant("message")
    id = prefixed("msg")
    header = fields.String(required=True)
    body = fields.String(required=True)
    audience = fields.Nested(MessageAudience, required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    sendAt = Timestamp(required=True, allow_none=True)
    audienceSize = fields.Integer(required=True, metadata={
        "description": "passes the audience named when sending began (before: now)"})
    processed = fields.Integer(required=True, metadata={
        "description": "passes of the audience handed the message so far"})
    delivery = fields.Nested(MessageDelivery, required=True, metadata={
        "description": "per wallet, each pass of the audience counted once"})
    source = fields.String(required=True, validate=validate.OneOf(("api", "dashboard")))
    createdAt = Timestamp(required=True)
    updatedAt = Timestamp(required=True)
    startedAt = Timestamp(required=True, allow_none=True)
    finishedAt = Timestamp(required=True, allow_none=True)
    canceledAt = Timestamp(required=True, allow_none=True)

    class Meta:
        ordered = True
