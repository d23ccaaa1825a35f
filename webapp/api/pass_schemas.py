"""Marshmallow schemas for passes, pass updates and download links."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from webapp.api.schemas import (
    PageQuery,
    Strict,
    StrictInteger,
    Timestamp,
    _Itself,
    constant,
    prefixed,
)
from webapp.domain.update_notice import NOTIFICATION_MODES
from webapp.services.email import sending as email_sending
from webapp.services.email import wire as email_wire
from webapp.services.passes import views


class StrictBoolean(fields.Boolean):
    """true or false, nothing else."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


class Platforms(Strict):
    apple = StrictBoolean()
    google = StrictBoolean()


_DATE_EXAMPLE = "2027-06-30T23:59:00+02:00"


def pass_date(description: str, **kwargs: Any) -> fields.String:
    """A per-pass date member of a request (the service checks the format)."""
    return fields.String(metadata={"format": "date-time", "examples": [_DATE_EXAMPLE],
                                   "description": description}, **kwargs)


_EXPIRES = ("when the pass expires (wallets grey it out: Apple `expirationDate`, Google "
            "`validTimeInterval.end`), overriding the template's expiresAt; RFC 3339 with an "
            "offset")
_RELEVANT = ("when the pass is relevant (Apple shows it on the lock screen: `relevantDate` "
             "and iOS 18's `relevantDates`; Google has no such date), overriding the "
             "template's event start; RFC 3339 with an offset")


_TAGS = ("the pass's tags (at most 20, each 1 to 40 letters, digits, '-', '_', '.' or ':', "
         "starting with a letter or digit); stored in lower case, a repeated tag kept once")


def tags_field(description: str) -> fields.List:
    """A `tags` member of a request: its type here, the rules in `domain/tags` (their own
    error codes: too_many_tags, tag_too_long, tag_empty, tag_invalid)."""
    return fields.List(fields.String(metadata={"minLength": 1, "maxLength": 40}), metadata={
        "maxItems": 20, "examples": [["vip", "season-2027"]], "description": description})


class PassCreate(Strict):
    templateId = fields.String(required=True, validate=validate.Length(1, 64))
    fieldValues = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "description": "values: strings or numbers",
        "additionalProperties": {"type": ["string", "number"]}})
    holderName = fields.String(validate=validate.Length(1, 200))
    holderEmail = fields.String(validate=validate.Length(3, 254))
    barcodeValue = fields.String(validate=validate.Length(1, 500))
    platforms = fields.Nested(Platforms)
    revision = StrictInteger(validate=validate.Range(1, 2**31 - 1))
    certificateId = fields.String(validate=validate.Length(1, 64))
    googleIssuerId = fields.String(validate=validate.Length(1, 64))
    expiresAt = pass_date(_EXPIRES)
    relevantDate = pass_date(_RELEVANT)
    tags = tags_field(_TAGS + "; default none")
    balance = StrictInteger(validate=validate.Range(0, 10**12), metadata={
        "description": "the opening balance: points on a loyalty template, minor units of "
                       "its currency on a gift_card template (default 0); refused on the "
                       "other types (balance_not_accepted)"})
    send = StrictBoolean(load_default=False, metadata={
        "description": "true: also email the pass to holderEmail (as POST /v1/passes/{id}/send "
                       "does; the answer's lastEmail shows it), in the language of "
                       "Accept-Language"})


class PassSend(Strict):
    to = fields.String(validate=validate.Length(3, 254), metadata={
        "description": "the address to send to; default the pass's holderEmail"})
    locale = fields.String(validate=validate.OneOf(email_sending.LANGUAGES), metadata={
        "description": "the email's language; default the first of Accept-Language that "
                       "the service speaks, else en"})


class PassUpdateBody(Strict):
    fieldValues = fields.Dict(keys=fields.String(), metadata={
        "description": "strings, numbers, or null to clear",
        "additionalProperties": {"type": ["string", "number", "null"]}})
    notificationMode = fields.String(load_default="silent",
                                     validate=validate.OneOf(NOTIFICATION_MODES))
    expiresAt = pass_date(_EXPIRES + "; null: the template's applies again", allow_none=True)
    relevantDate = pass_date(_RELEVANT + "; null: the template's applies again",
                             allow_none=True)
    tags = tags_field(_TAGS + "; replaces the pass's tags ([] removes them all); tags "
                      "change no wallet")


class PassImageBody(Strict):
    assetId = fields.String(required=True, validate=validate.Length(1, 64), metadata={
        "examples": ["asset_01JD8Z3K4M5N6P7Q8R9S0T1V2W"],
        "description": "an asset of the organization uploaded for the same slot"})


class PassListQuery(PageQuery):
    templateId = fields.String(validate=validate.Length(1, 64))
    status = fields.String(validate=validate.OneOf(("active", "voided")))
    source = fields.String(validate=validate.OneOf(("api", "dashboard", "enrollment")))
    search = fields.String(validate=validate.Length(1, 200))
    tag = fields.String(validate=validate.Length(1, 40), metadata={
        "examples": ["vip"], "description": "only passes with this tag (exact, any case: "
                                            "tags are stored in lower case)"})


class DownloadLinkCreate(Strict):
    expiresInSeconds = StrictInteger(load_default=3600, metadata={
        "minimum": 60, "maximum": 7 * 24 * 3600, "description": "60 s to 7 days; default 1 hour"})


class WalletState(Schema):
    ready = fields.Boolean(required=True)
    reason = fields.String(required=True, allow_none=True,
                           metadata={"description": "why the wallet file is not ready"})


class Artifacts(Schema):
    apple = fields.Nested(WalletState, required=True)
    google = fields.Nested(WalletState, required=True)


class PassPlatforms(Schema):
    apple = fields.Boolean(required=True)
    google = fields.Boolean(required=True)


class Signing(Schema):
    appleCertificateId = fields.String(attribute="apple_certificate_id", required=True,
                                       allow_none=True,
                                       metadata={"description": "cert_..., or demo in test"})
    applePassTypeIdentifier = fields.String(attribute="apple_pass_type_identifier",
                                            required=True, allow_none=True)
    googleIssuerId = fields.String(attribute="google_issuer_id", required=True,
                                   allow_none=True)


_VALUE = {"oneOf": [{"type": "string"}, {"type": "number"}]}


class Email(Schema):
    object = constant("email")
    id = prefixed("eml")
    passId = prefixed("pass", attribute="pass_id")
    to = fields.String(attribute="to_address", required=True)
    locale = fields.String(required=True, metadata={"enum": list(email_sending.LANGUAGES)})
    status = fields.String(required=True, metadata={
        "enum": ["queued", "sent", "failed"],
        "description": "queued until the SMTP server accepts it (sent) or refuses it for good "
                       "(failed); transient failures are retried for about 42 minutes"})
    error = fields.Dict(required=True, allow_none=True, metadata={
        "description": "why the last attempt failed (while queued: it is retried): `code` "
                       "(smtp_rejected, smtp_temporary, connection_failed, timeout, "
                       "authentication_failed, starttls_unavailable, tls_failed, pass_voided, "
                       "email_not_configured) and `message` (the server's answer)",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code"]})
    createdAt = Timestamp(attribute="created_at", required=True)
    sentAt = Timestamp(attribute="sent_at", required=True, allow_none=True)

    class Meta:
        ordered = True


def dump_email(item: Any) -> dict[str, Any]:
    """`Email().dump(item)`, as `lastEmail` and events write it (tests hold them equal)."""
    return email_wire.email_object(item)


class Pass(Schema):
    object = constant("pass")
    id = prefixed("pass")
    shortId = fields.String(attribute="short_id", required=True,
                            metadata={"minLength": 12, "maxLength": 12})
    templateId = prefixed("tmpl", attribute="template_id")
    templateName = fields.String(attribute="template_name", required=True, allow_none=True)
    templateRevision = fields.Integer(attribute="template_revision", required=True,
                                      metadata={"minimum": 1})
    environment = fields.String(required=True, metadata={"enum": ["test", "live"]})
    status = fields.String(required=True, metadata={"enum": ["active", "voided"]})
    source = fields.String(required=True, metadata={
        "enum": ["api", "dashboard", "enrollment"],
        "description": "enrollment: from a sign-up page"})
    holderName = fields.String(attribute="holder_name", required=True, allow_none=True)
    holderEmail = fields.String(attribute="holder_email", required=True, allow_none=True)
    platforms = _Itself(PassPlatforms, required=True)
    signing = _Itself(Signing, required=True)
    expiresAt = fields.String(attribute="expires_at", required=True, allow_none=True, metadata={
        "format": "date-time", "examples": [_DATE_EXAMPLE],
        "description": "the pass's own expiry as given; null: its template's expiresAt "
                       "(if any) applies"})
    relevantDate = fields.String(attribute="relevant_date", required=True, allow_none=True,
                                 metadata={"format": "date-time", "examples": [_DATE_EXAMPLE],
                                           "description": "the pass's own relevant date as "
                                                          "given; null: its template's"})
    images = fields.Function(lambda obj: dict(obj.images or {}), required=True, metadata={
        "type": "object", "additionalProperties": {"type": "string", "pattern": "^asset_"},
        "examples": [{"thumbnail": "asset_01JD8Z3K4M5N6P7Q8R9S0T1V2W"}],
        "description": "the pass's own images, slot -> asset ID (PUT "
                       "/v1/passes/{id}/images/{slot}), shown over its template's"})
    tags = fields.Function(lambda obj: list(obj.tags or []), required=True, metadata={
        "type": "array", "items": {"type": "string"}, "examples": [["vip", "season-2027"]],
        "description": "the pass's tags, lower case, in the order given; [] without"})
    fieldValues = fields.Dict(attribute="field_values", keys=fields.String(),
                              metadata={"additionalProperties": _VALUE,
                                        "description": "omitted from list results"})
    distributionUrl = fields.Method("_distribution_url", required=True,
                                    metadata={"type": "string", "format": "uri"})
    artifacts = fields.Nested(Artifacts, metadata={"description": "omitted from list results"})
    walletUpdatedAt = Timestamp(attribute="wallet_updated_at",
                                metadata={"description": "omitted from list results"})
    createdAt = Timestamp(attribute="created_at", required=True)
    updatedAt = Timestamp(attribute="updated_at", required=True)
    voidedAt = Timestamp(attribute="voided_at", required=True, allow_none=True)
    erasedAt = Timestamp(attribute="erased_at", required=True, allow_none=True, metadata={
        "description": "when the holder's data was erased (POST /v1/passes/{id}/erase)"})
    redemptionCount = fields.Integer(attribute="redemption_count", required=True, metadata={
        "minimum": 0, "description": "how often the pass was redeemed (checked in)"})
    lastRedeemedAt = Timestamp(attribute="last_redeemed_at", required=True, allow_none=True)
    balance = fields.Integer(required=True, allow_none=True, metadata={
        "minimum": 0, "description": "loyalty: points; gift_card: money in minor units of "
                                     "the template's giftCard.currency (1250 is 12.50 EUR); "
                                     "null on the other types"})
    lifetimePoints = fields.Integer(attribute="lifetime_points", required=True,
                                    allow_none=True, metadata={
                                        "minimum": 0,
                                        "description": "loyalty: every point earned (the "
                                                       "opening balance included; spends "
                                                       "never lower it); null on the other "
                                                       "types"})
    tier = fields.Method("_tier", required=True, metadata={
        "type": ["string", "null"],
        "description": "loyalty: the name of the highest tier the lifetime points reach "
                       "(spending never demotes); null without tiers or on the other types"})
    lastEmail = fields.Nested(Email, attribute="last_email", allow_none=True, metadata={
        "description": "the newest email of the pass, or null; omitted from list results"})
    editableFields = fields.List(fields.Dict(), attribute="editable_fields",
                                 metadata={"description": "omitted from list results"})
    editableBarcode = fields.Boolean(attribute="editable_barcode",
                                     metadata={"description": "omitted from list results"})
    preview = fields.Dict(metadata={"description": "omitted from list results"})

    class Meta:
        ordered = True

    def _distribution_url(self, obj: Any) -> str:
        return views.distribution_url(obj.short_id)

    def _tier(self, obj: Any) -> str | None:
        return views.tier_name(obj)


def dump_pass(item: Any) -> dict[str, Any]:
    """`Pass().dump(item)` written out (by `services/passes/views.wire`, which events' list
    shape shares): every issue, update and void answers with it, and the schema's generic
    dump costs several times this. `tests/api/test_pass_schemas.py` holds the two equal,
    member order included; the schema stays the reference (and the OpenAPI document's
    source)."""
    return views.wire(item, item.template_name, detail=True)


PASS_LIST_EXCLUDE = ("fieldValues", "artifacts", "walletUpdatedAt", "lastEmail",
                     "editableFields", "editableBarcode", "preview")


class FieldChange(Schema):
    key = fields.String(required=True)
    label = fields.String(allow_none=True)
    # `from`/`to` are Python keywords: declared by data_key.
    from_ = fields.String(data_key="from", attribute="from", required=True, allow_none=True)
    to = fields.String(required=True, allow_none=True)


class Changes(Schema):
    fields_ = fields.List(fields.Nested(FieldChange), data_key="fields", required=True,
                          attribute="changes")


def _error(attribute: str) -> fields.Dict:
    return fields.Dict(attribute=attribute, required=True, allow_none=True, metadata={
        "description": "why the delivery failed: `code`, and a `message`",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code"]})


class DeliveryApple(Schema):
    status = fields.String(attribute="apple_status", required=True, metadata={
        "enum": ["pending", "sent", "no_devices", "delivered", "failed", "skipped"]})
    devices = fields.Integer(attribute="apple_devices", required=True, metadata={"minimum": 0})
    error = _error("apple_error")


class DeliveryGoogle(Schema):
    status = fields.String(attribute="google_status", required=True, metadata={
        "enum": ["pending", "updated", "not_saved", "failed", "skipped"]})
    message = fields.String(attribute="google_message", required=True, allow_none=True)
    error = _error("google_error")


class Delivery(Schema):
    apple = _Itself(DeliveryApple, required=True)
    google = _Itself(DeliveryGoogle, required=True)


class PassUpdate(Schema):
    object = constant("pass_update")
    id = prefixed("pupd")
    passId = prefixed("pass", attribute="pass_id")
    kind = fields.String(required=True, metadata={
        "enum": ["update", "void", "erase", "message"],
        "description": "erase: the holder's data was erased (POST /v1/passes/{id}/erase); "
                       "message: a message to holders reached the pass (messageId)"})
    messageId = fields.String(attribute="message_id", required=True, allow_none=True, metadata={
        "pattern": "^msg_", "description": "kind message: the message (POST /v1/messages)"})
    notificationMode = fields.String(attribute="notification_mode", required=True,
                                     metadata={"enum": list(NOTIFICATION_MODES)})
    walletChanged = fields.Boolean(attribute="wallet_changed", required=True)
    changes = _Itself(Changes, required=True)
    delivery = _Itself(Delivery, required=True)
    createdAt = Timestamp(attribute="created_at", required=True)

    class Meta:
        ordered = True


class PassWithUpdate(Schema):
    pass_ = fields.Nested(Pass, data_key="pass", required=True)
    update = fields.Nested(PassUpdate, required=True)


class DownloadLink(Schema):
    object = constant("download_link")
    id = prefixed("dlink")
    passId = prefixed("pass", attribute="pass_id")
    url = fields.String(metadata={"format": "uri",
                                  "description": "only in the response that creates the link"})
    expiresAt = Timestamp(attribute="expires_at", required=True)
    revokedAt = Timestamp(attribute="revoked_at", required=True, allow_none=True)
    createdAt = Timestamp(attribute="created_at", required=True)

    class Meta:
        ordered = True
