"""Marshmallow schemas: request bodies and query strings (load), resources (dump).

They are also the source of `/v1/openapi.json`. Unknown members are errors everywhere.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from webapp import clock
from webapp.domain import permissions

TEMPLATE_TYPES = ("generic", "event_ticket", "loyalty", "gift_card", "coupon")
SLOTS = ("icon", "logo", "strip", "thumbnail", "background", "hero")  # no wallet shows a footer
ENVIRONMENTS = ("test", "live")
IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")
ERROR_TYPES = ("invalid_request_error", "idempotency_error", "not_found_error", "conflict_error",
               "permission_error", "rate_limit_error", "api_error")


class StrictInteger(fields.Integer):
    """An integer, never a boolean, a float or a string."""

    def __init__(self, **kwargs: Any):
        metadata = {"description": "a JSON integer written without a fraction (2, not 2.0)",
                    **kwargs.pop("metadata", {})}
        super().__init__(strict=True, metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise ValidationError("Not a valid integer.")
        return super()._deserialize(value, attr, data, **kwargs)


class QueryInteger(fields.Integer):
    """An integer written in a query string: digits only."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        # ASCII digits only: str.isdigit() also takes "²", "🄀" (int() refuses them: a 500) and
        # "٣" (read as 3).
        digits = isinstance(value, str) and value.isascii() and value.isdigit()
        if not digits or len(value) > 9:
            raise ValidationError("Not a valid integer.")
        return int(value)


class QueryBoolean(fields.Boolean):
    """`true` or `false` in a query string."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if value not in ("true", "false"):
            raise ValidationError("Must be true or false.")
        return value == "true"


class Timestamp(fields.Field):
    """ISO 8601 UTC with milliseconds."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("metadata", {}).setdefault(
            "pattern", r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
        super().__init__(**kwargs)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str | None:
        return clock.isoformat(value)


class Strict(Schema):
    class Meta:
        unknown = RAISE
        ordered = True


# ---- requests --------------------------------------------------------------------------

class PageQuery(Strict):
    limit = QueryInteger(load_default=25, metadata={"description": "1 to 100", "minimum": 1,
                                                    "maximum": 100})
    cursor = fields.String(validate=validate.Length(1, 64),
                           metadata={"description": "nextCursor of the previous page"})


class TemplateListQuery(PageQuery):
    type = fields.String(validate=validate.OneOf(TEMPLATE_TYPES))
    archived = QueryBoolean(load_default=False)


def _not_only_spaces(value: str) -> None:
    if not value.strip():
        raise ValidationError("Must not be only spaces.")


def template_name(**kwargs: Any) -> fields.String:
    """A template's name: 1 to 100 characters, not only spaces (it would show as nothing)."""
    return fields.String(validate=[validate.Length(1, 100), _not_only_spaces],
                         metadata={"pattern": r"\S"}, **kwargs)


class TemplateCreate(Strict):
    name = template_name(required=True)
    type = fields.String(required=True, validate=validate.OneOf(TEMPLATE_TYPES))
    definition = fields.Dict(required=True, metadata={"description": "Definition schema v1"})


class TemplateSettingsUpdate(Strict):
    appleCertificateId = fields.String(allow_none=True, validate=validate.Length(1, 64),
                                       metadata={"description": "cert_...; null clears"})
    googleIssuerId = fields.String(allow_none=True, validate=validate.Length(1, 64),
                                   metadata={"description": "a Google issuer ID of this "
                                             "organization; null clears"})


class TemplateUpdate(Strict):
    expectedRevision = StrictInteger(required=True, validate=validate.Range(1, 2**31 - 1))
    name = template_name()
    definition = fields.Dict()
    settings = fields.Nested(TemplateSettingsUpdate,
                             metadata={"description": "default live credentials; no new "
                                       "revision"})


class TemplateDuplicate(Strict):
    name = template_name()


class AssetCreate(Strict):
    slot = fields.String(required=True, metadata={"enum": list(SLOTS)})
    data = fields.String(required=True, metadata={"description": "base64 image file, <= 5 MiB",
                                                   "minLength": 1})
    contentType = fields.String(validate=validate.Length(1, 100))


# ---- resources -------------------------------------------------------------------------
# Output schemas: `required=True` only documents that a member is always present (dump
# ignores it), so the OpenAPI document states the shapes the API really sends.

def constant(value: str) -> fields.Constant:
    """The `object` member: a fixed string."""
    return fields.Constant(value, required=True, metadata={"type": "string", "enum": [value]})


def prefixed(prefix: str, **kwargs: Any) -> fields.String:
    """An ID: its prefix and an underscore, then the random part."""
    return fields.String(required=True, metadata={"pattern": f"^{prefix}_"}, **kwargs)


class Issue(Schema):
    path = fields.String(required=True,
                         metadata={"description": "JSON Pointer into the definition"})
    code = fields.String(required=True)
    message = fields.String(required=True)


class ErrorDetail(Schema):
    type = fields.String(validate=validate.OneOf(ERROR_TYPES),
                         metadata={"description": "absent only on 401"})
    code = fields.String()
    message = fields.String(required=True)
    param = fields.String()
    issues = fields.List(fields.Nested(Issue), metadata={
        "description": "an invalid template definition: its first 100 problems"})
    issueCount = fields.Integer(metadata={
        "description": "with issues: how many problems there are in all"})
    passId = fields.String(metadata={
        "description": "a refused redemption (409 pass_voided, pass_expired, "
                       "redemption_not_enabled, already_redeemed, max_uses_reached) or a "
                       "refused spend (409 insufficient_balance): the pass"})
    # Documentation only (error bodies are built by webapp.api.errors): a Redemption or null.
    redemption = fields.Raw(metadata={
        "description": "a refused redemption: the earlier redemption that decided it (the "
                       "first for already_redeemed, the last for max_uses_reached), else null",
        "oneOf": [{"$ref": "#/components/schemas/Redemption"}, {"type": "null"}]})
    balance = fields.Integer(metadata={
        "description": "a refused spend (409 insufficient_balance): the pass's balance now"})


class Error(Schema):
    error = fields.Nested(ErrorDetail, required=True)
    requestId = prefixed("req")


# A restricted key's level for every resource.
Permissions = Schema.from_dict({
    resource: fields.String(required=True, validate=validate.OneOf(permissions.LEVELS))
    for resource in permissions.RESOURCES}, name="Permissions")


class Me(Schema):
    organizationId = prefixed("org", attribute="organization_id")
    environment = fields.String(required=True, validate=validate.OneOf(ENVIRONMENTS))
    permissions = fields.Nested(Permissions, required=True, allow_none=True, metadata={
        "description": "the key's level (none, read or write; write includes read) per "
                       "resource; null: full access"})


class TemplateSettings(Schema):
    appleCertificateId = fields.String(attribute="apple_certificate_id", allow_none=True,
                                       required=True)
    googleIssuerId = fields.String(attribute="google_issuer_id", allow_none=True, required=True)


class _Itself(fields.Nested):
    """A nested schema dumped from the object itself rather than from one of its attributes."""

    def get_value(self, obj: Any, attr: str, accessor: Any = None, default: Any = None) -> Any:
        return obj


class Template(Schema):
    object = constant("template")
    id = prefixed("tmpl")
    type = fields.String(required=True, validate=validate.OneOf(TEMPLATE_TYPES))
    name = fields.String(required=True, validate=validate.Length(1, 100))
    revision = fields.Integer(required=True, validate=validate.Range(min=1))
    archived = fields.Boolean(required=True)
    requiredFields = fields.List(fields.String(), attribute="required_fields", required=True)
    definition = fields.Dict(metadata={"description": "omitted from list results"})
    settings = _Itself(TemplateSettings, required=True)
    enrollmentUrl = fields.String(attribute="enrollment_url", required=True, allow_none=True,
                                  metadata={"format": "uri", "description": "the sign-up page "
                                            "of the key's environment (<BASE_URL>/join/<slug>, "
                                            "a random slug of 16 characters); null while "
                                            "definition.enrollment.enabled is not true. POST "
                                            "/v1/templates/{id}/enrollment-link replaces it"})
    createdAt = Timestamp(attribute="created_at", required=True)
    updatedAt = Timestamp(attribute="updated_at", required=True)

    class Meta:
        ordered = True


class Asset(Schema):
    object = constant("asset")
    id = prefixed("asset")
    slot = fields.String(required=True, validate=validate.OneOf(SLOTS))
    contentType = fields.String(attribute="content_type", required=True,
                                validate=validate.OneOf(IMAGE_TYPES))
    byteSize = fields.Integer(attribute="byte_size", required=True)
    width = fields.Integer(required=True, validate=validate.Range(16, 4000))
    height = fields.Integer(required=True, validate=validate.Range(16, 4000))
    url = fields.String(required=True)
    createdAt = Timestamp(attribute="created_at", required=True)

    class Meta:
        ordered = True


def list_envelope(item_schema: Schema, page: Any) -> dict[str, Any]:
    """The list envelope: object, data, hasMore, nextCursor."""
    return {"object": "list", "data": item_schema.dump(page.data, many=True),
            "hasMore": page.has_more, "nextCursor": page.next_cursor}
