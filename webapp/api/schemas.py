"""Marshmallow schemas: request bodies and query strings (load), resources (dump).

They are also the source of `/v1/openapi.json`. Unknown members are errors everywhere.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from webapp import clock

TEMPLATE_TYPES = ("generic", "event_ticket")
SLOTS = ("icon", "logo", "strip", "thumbnail", "background", "footer", "hero")


class StrictInteger(fields.Integer):
    """An integer, never a boolean, a float or a string."""

    def __init__(self, **kwargs: Any):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise ValidationError("Not a valid integer.")
        return super()._deserialize(value, attr, data, **kwargs)


class QueryInteger(fields.Integer):
    """An integer written in a query string: digits only."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, str) or not value.isdigit() or len(value) > 9:
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

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str | None:
        return clock.isoformat(value)


class Strict(Schema):
    class Meta:
        unknown = RAISE
        ordered = True


# ---- requests --------------------------------------------------------------------------

class PageQuery(Strict):
    limit = QueryInteger(load_default=25, metadata={"description": "1 to 100"})
    cursor = fields.String(validate=validate.Length(1, 64),
                           metadata={"description": "nextCursor of the previous page"})


class TemplateListQuery(PageQuery):
    type = fields.String(validate=validate.OneOf(TEMPLATE_TYPES))
    archived = QueryBoolean(load_default=False)


class TemplateCreate(Strict):
    name = fields.String(required=True, validate=validate.Length(1, 100))
    type = fields.String(required=True, validate=validate.OneOf(TEMPLATE_TYPES))
    definition = fields.Dict(required=True, metadata={"description": "Definition schema v1"})


class TemplateUpdate(Strict):
    expectedRevision = StrictInteger(required=True, validate=validate.Range(1, 2**31 - 1))
    name = fields.String(validate=validate.Length(1, 100))
    definition = fields.Dict()


class TemplateDuplicate(Strict):
    name = fields.String(validate=validate.Length(1, 100))


class AssetCreate(Strict):
    slot = fields.String(required=True, metadata={"enum": list(SLOTS)})
    data = fields.String(required=True, metadata={"description": "base64 image file, <= 5 MiB"})
    contentType = fields.String(validate=validate.Length(1, 100))


# ---- resources -------------------------------------------------------------------------

class ErrorDetail(Schema):
    type = fields.String()
    code = fields.String()
    message = fields.String(required=True)
    param = fields.String()
    issues = fields.List(fields.Dict())


class Error(Schema):
    error = fields.Nested(ErrorDetail, required=True)
    requestId = fields.String(required=True)


class Me(Schema):
    organizationId = fields.String(attribute="organization_id")
    environment = fields.String()


class TemplateSettings(Schema):
    appleCertificateId = fields.String(attribute="apple_certificate_id", allow_none=True)
    googleIssuerId = fields.String(attribute="google_issuer_id", allow_none=True)


class Template(Schema):
    object = fields.Constant("template")
    id = fields.String()
    type = fields.String()
    name = fields.String()
    revision = fields.Integer()
    archived = fields.Boolean()
    requiredFields = fields.List(fields.String(), attribute="required_fields")
    definition = fields.Dict()
    settings = fields.Method("_settings")
    createdAt = Timestamp(attribute="created_at")
    updatedAt = Timestamp(attribute="updated_at")

    class Meta:
        ordered = True

    def _settings(self, obj: Any) -> dict[str, Any]:
        return TemplateSettings().dump(obj)


class Asset(Schema):
    object = fields.Constant("asset")
    id = fields.String()
    slot = fields.String()
    contentType = fields.String(attribute="content_type")
    byteSize = fields.Integer(attribute="byte_size")
    width = fields.Integer()
    height = fields.Integer()
    url = fields.String()
    createdAt = Timestamp(attribute="created_at")

    class Meta:
        ordered = True


def list_envelope(item_schema: Schema, page: Any) -> dict[str, Any]:
    """The list envelope: object, data, hasMore, nextCursor."""
    return {"object": "list", "data": item_schema.dump(page.data, many=True),
            "hasMore": page.has_more, "nextCursor": page.next_cursor}
