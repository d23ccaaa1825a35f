"""Marshmallow schemas for passes, pass updates and download links."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, ValidationError, fields, validate

from webapp.api.schemas import PageQuery, Strict, StrictInteger, Timestamp


class StrictBoolean(fields.Boolean):
    """true or false, nothing else."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


class Platforms(Strict):
    apple = StrictBoolean()
    google = StrictBoolean()


class PassCreate(Strict):
    templateId = fields.String(required=True, validate=validate.Length(1, 64))
    fieldValues = fields.Dict(keys=fields.String(), load_default=dict,
                              metadata={"description": "values: strings or numbers"})
    holderName = fields.String(validate=validate.Length(1, 200))
    holderEmail = fields.String(validate=validate.Length(3, 254))
    barcodeValue = fields.String(validate=validate.Length(1, 500))
    platforms = fields.Nested(Platforms)
    revision = StrictInteger(validate=validate.Range(1, 2**31 - 1))
    certificateId = fields.String(validate=validate.Length(1, 64))
    googleIssuerId = fields.String(validate=validate.Length(1, 64))


class PassUpdateBody(Strict):
    fieldValues = fields.Dict(keys=fields.String(),
                              metadata={"description": "strings, numbers, or null to clear"})
    notificationMode = fields.String(load_default="silent",
                                     validate=validate.OneOf(("silent", "notify")))


class PassListQuery(PageQuery):
    templateId = fields.String(validate=validate.Length(1, 64))
    status = fields.String(validate=validate.OneOf(("active", "voided")))
    source = fields.String(validate=validate.OneOf(("api", "dashboard")))
    search = fields.String(validate=validate.Length(1, 200))


class DownloadLinkCreate(Strict):
    expiresInSeconds = StrictInteger(load_default=3600)


class WalletState(Schema):
    ready = fields.Boolean()
    reason = fields.String(allow_none=True)


class Artifacts(Schema):
    apple = fields.Nested(WalletState)
    google = fields.Nested(WalletState)


class Pass(Schema):
    object = fields.Constant("pass")
    id = fields.String()
    shortId = fields.String(attribute="short_id")
    templateId = fields.String(attribute="template_id")
    templateName = fields.String(attribute="template_name", allow_none=True)
    templateRevision = fields.Integer(attribute="template_revision")
    environment = fields.String()
    status = fields.String()
    source = fields.String()
    holderName = fields.String(attribute="holder_name", allow_none=True)
    holderEmail = fields.String(attribute="holder_email", allow_none=True)
    platforms = fields.Method("_platforms")
    signing = fields.Method("_signing")
    fieldValues = fields.Dict(attribute="field_values")
    distributionUrl = fields.Method("_distribution_url")
    artifacts = fields.Nested(Artifacts)
    walletUpdatedAt = Timestamp(attribute="wallet_updated_at")
    createdAt = Timestamp(attribute="created_at")
    updatedAt = Timestamp(attribute="updated_at")
    voidedAt = Timestamp(attribute="voided_at", allow_none=True)
    editableFields = fields.List(fields.Dict(), attribute="editable_fields")
    editableBarcode = fields.Boolean(attribute="editable_barcode")
    preview = fields.Dict()

    class Meta:
        ordered = True

    def _platforms(self, obj: Any) -> dict[str, bool]:
        return {"apple": obj.apple, "google": obj.google}

    def _signing(self, obj: Any) -> dict[str, Any]:
        return {"appleCertificateId": obj.apple_certificate_id,
                "applePassTypeIdentifier": obj.apple_pass_type_identifier,
                "googleIssuerId": obj.google_issuer_id}

    def _distribution_url(self, obj: Any) -> str:
        return f"{current_app.config['BASE_URL']}/p/{obj.short_id}"


PASS_LIST_EXCLUDE = ("fieldValues", "artifacts", "walletUpdatedAt", "editableFields",
                     "editableBarcode", "preview")


class DeliveryApple(Schema):
    status = fields.String()
    devices = fields.Integer()
    error = fields.Dict(allow_none=True)


class DeliveryGoogle(Schema):
    status = fields.String()
    message = fields.String(allow_none=True)
    error = fields.Dict(allow_none=True)


class PassUpdate(Schema):
    object = fields.Constant("pass_update")
    id = fields.String()
    passId = fields.String(attribute="pass_id")
    kind = fields.String()
    notificationMode = fields.String(attribute="notification_mode")
    walletChanged = fields.Boolean(attribute="wallet_changed")
    changes = fields.Method("_changes")
    delivery = fields.Method("_delivery")
    createdAt = Timestamp(attribute="created_at")

    class Meta:
        ordered = True

    def _changes(self, obj: Any) -> dict[str, Any]:
        return {"fields": obj.changes}

    def _delivery(self, obj: Any) -> dict[str, Any]:
        return {"apple": {"status": obj.apple_status, "devices": obj.apple_devices,
                          "error": obj.apple_error},
                "google": {"status": obj.google_status, "message": obj.google_message,
                           "error": obj.google_error}}


class PassWithUpdate(Schema):
    pass_ = fields.Nested(Pass, data_key="pass")
    update = fields.Nested(PassUpdate)


class DownloadLink(Schema):
    object = fields.Constant("download_link")
    id = fields.String()
    passId = fields.String(attribute="pass_id")
    url = fields.String()
    expiresAt = Timestamp(attribute="expires_at")
    revokedAt = Timestamp(attribute="revoked_at", allow_none=True)
    createdAt = Timestamp(attribute="created_at")

    class Meta:
        ordered = True
