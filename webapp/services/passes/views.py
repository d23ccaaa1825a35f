"""What a pass shows: its wire members, artifacts readiness, editable fields, the preview card."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from webapp import clock, settings
from webapp.domain import balances, definition_read, per_pass
from webapp.domain import definition as rules
from webapp.extensions import db
from webapp.models import GoogleObject, Organization, Pass, PassEmail
from webapp.services.credentials import identities
from webapp.services.email import sending as email_sending
from webapp.services.email import wire as email_wire
from webapp.services.templates import revisions

_READ: object = object()  # `attach`: read the pass's newest email


def distribution_url(short_id: str) -> str:
    """The pass's permanent page (the only place its URL is written)."""
    return f"{settings.get('BASE_URL')}/p/{short_id}"


def wire(item: Pass, template_name: str | None, *, detail: bool) -> dict[str, Any]:
    """The pass as the API and events show it, member order included (answers and
    webhooks are compared byte for byte). `detail`: with the members a list result omits
    (`fieldValues`, `artifacts`, `walletUpdatedAt`, `lastEmail`, `editableFields`,
    `editableBarcode`, `preview`: these need `attach` first); without them it is the list
    shape events carry.
    """
    out: dict[str, Any] = {
        "object": "pass", "id": item.id, "shortId": item.short_id,
        "templateId": item.template_id, "templateName": template_name,
        "templateRevision": item.template_revision, "environment": item.environment,
        "status": item.status, "source": item.source, "holderName": item.holder_name,
        "holderEmail": item.holder_email,
        "platforms": {"apple": bool(item.apple), "google": bool(item.google)},
        "signing": {"appleCertificateId": item.apple_certificate_id,
                    "applePassTypeIdentifier": item.apple_pass_type_identifier,
                    "googleIssuerId": item.google_issuer_id},
        "expiresAt": item.expires_at, "relevantDate": item.relevant_date,
        "images": dict(item.images or {}), "tags": list(item.tags or []),
    }
    attached: Any = item  # `attach` set the detail members
    if detail:
        out["fieldValues"] = dict(item.field_values)
    out["distributionUrl"] = distribution_url(item.short_id)
    if detail:
        artifacts = attached.artifacts
        out["artifacts"] = {"apple": dict(artifacts["apple"]),
                            "google": dict(artifacts["google"])}
        out["walletUpdatedAt"] = clock.isoformat(item.wallet_updated_at)
    out["createdAt"] = clock.isoformat(item.created_at)
    out["updatedAt"] = clock.isoformat(item.updated_at)
    out["voidedAt"] = clock.isoformat(item.voided_at)
    out["erasedAt"] = clock.isoformat(item.erased_at)
    out["redemptionCount"] = item.redemption_count
    out["lastRedeemedAt"] = clock.isoformat(item.last_redeemed_at)
    out["balance"] = item.balance
    out["lifetimePoints"] = item.lifetime_points
    out["tier"] = tier_name(item)
    if detail:
        last = item.last_email
        out["lastEmail"] = None if last is None else email_wire.email_object(last)
        out["editableFields"] = [dict(field) for field in attached.editable_fields]
        out["editableBarcode"] = bool(attached.editable_barcode)
        out["preview"] = dict(attached.preview)
    return out


def tier_name(item: Pass) -> str | None:
    """A loyalty pass's tier, by its lifetime points (None: no tiers, or not loyalty)."""
    if item.lifetime_points is None:
        return None
    definition = getattr(item, "definition", None) or revisions.definition_of(
        item.template_id, item.template_revision) or {}
    tier = balances.tier_for(definition, item.lifetime_points)
    return tier.name if tier else None


def attach(item: Pass, template_name: str | None, definition: dict[str, Any], *,
           google_row: GoogleObject | None = None,
           last_email: PassEmail | object | None = _READ) -> Pass:
    """Set the derived members the front doors show on the pass (`google_row`: its Google
    row as it is now, `last_email`: its newest email, when the caller holds them: saves a
    read)."""
    item.template_name = template_name
    item.last_email = email_sending.latest(item.id) if last_email is _READ else last_email
    item.definition = definition
    item.artifacts = artifacts(item, definition, google_row)
    item.editable_fields = editable_fields(item, definition)
    item.editable_barcode = definition_read.takes_barcode_value(definition)
    item.preview = preview(item, definition)
    return item


def artifacts(item: Pass, definition: dict[str, Any],
              google_row: GoogleObject | None = None) -> dict[str, Any]:
    """Whether the pass can be added to each wallet now, and if not, why."""
    return {"apple": _apple(item), "google": _google(item, definition, google_row)}


def _state(reason: str | None) -> dict[str, Any]:
    return {"ready": reason is None, "reason": reason}


def _apple(item: Pass) -> dict[str, Any]:
    if not item.apple:
        return _state("not_issued_for_platform")
    if item.status == "voided":
        return _state("voided")
    if item.apple_certificate_id == identities.DEMO:
        return _state(None)
    cert = identities.find_certificate(item.organization_id, item.apple_certificate_id or "")
    if cert is None:
        return _state("credentials_missing")
    if cert.expires_at <= clock.now():
        return _state("certificate_expired")
    return _state(None)


def _google(item: Pass, definition: dict[str, Any], row: GoogleObject | None
            ) -> dict[str, Any]:
    if not item.google:
        return _state("not_issued_for_platform")
    if item.status == "voided":
        return _state("voided")
    if item.google_issuer_id != identities.DEMO and identities.find_issuer(
            item.organization_id, item.google_issuer_id or "") is None:
        return _state("credentials_missing")
    if images_of(item, definition) and not images_public():
        return _state("image_not_public")
    if row is None:  # a job may have run: read the row as it is now
        row = db.session.get(GoogleObject, item.id, populate_existing=True)
    return _state(_google_object_reason(row))


def _google_object_reason(row: GoogleObject | None) -> str | None:
    """Why the pass's Google object cannot be saved yet (the sync job writes it)."""
    if row is None:
        return "wallet_unavailable"
    if row.state == "written":
        return None
    if row.state == "pending" and row.attempts == 0:
        return "wallet_pending"
    return row.reason or "wallet_unavailable"


def images_public() -> bool:
    """Whether Google can fetch our asset URLs: https on a host that is not local."""
    parts = urlsplit(settings.get("BASE_URL"))
    host = (parts.hostname or "").lower()
    return parts.scheme == "https" and host not in ("localhost", "127.0.0.1", "::1") \
        and not host.endswith(".local")


def editable_fields(item: Pass, definition: dict[str, Any]) -> list[dict[str, Any]]:
    """The per-pass fields a person may edit, with their current values."""
    return [{"key": key, "label": field.get("label", key),
             "required": field.get("required") is True, "format": field.get("format", "text"),
             "value": item.field_values.get(key)}
            for key, field in definition_read.per_pass_fields(definition).items()]


def preview(item: Pass, definition: dict[str, Any]) -> dict[str, Any]:
    """The pass as a card: colours, texts, fields by group with their values, barcode."""
    colors = definition.get("colors", {})
    groups: dict[str, list[dict[str, Any]]] = {group: [] for group in rules.GROUPS}
    for group, field in definition_read.fields(definition):
        value = field.get("value") if field.get("binding") == "shared" else \
            item.field_values.get(field.get("key", ""))
        groups[group].append({"key": field.get("key"), "label": field.get("label", ""),
                              "value": None if value is None else str(value)})
    _store_fields(item, definition, groups)
    barcode = definition.get("barcode")
    return {
        "organizationName": definition.get("organizationName"),
        "description": definition.get("description"),
        "logoText": definition.get("logoText"),
        "backgroundColor": colors.get("background"),
        "foregroundColor": colors.get("foreground"),
        "labelColor": colors.get("label") or colors.get("foreground"),
        "images": images_of(item, definition),
        "fields": groups,
        "barcode": None if not barcode else {
            "format": barcode.get("format"), "value": barcode_message(item, definition),
            "altText": placeholders(barcode.get("altText"), item)},
        "event": definition.get("event"),
    }


def _store_fields(item: Pass, definition: dict[str, Any],
                  groups: dict[str, list[dict[str, Any]]]) -> None:
    """As the wallets show them: a balance first in the primary row, a tier first in the
    header, a coupon's offer title as its primary field when the design has none."""
    amount = getattr(item, "balance", None)
    if amount is not None and balances.balance_kind(definition.get("type")):
        label = (balances.points_label(definition) if definition.get("type") == "loyalty"
                 else "Balance")
        groups["primary"].insert(0, {"key": "pass.balance", "label": label,
                                     "value": balances.shown(definition, amount)})
        tier = balances.tier_for(definition, getattr(item, "lifetime_points", None))
        if tier is not None:
            groups["header"].insert(0, {"key": "pass.tier", "label": "Tier",
                                        "value": tier.name})
    offer = definition.get("offer")
    if definition.get("type") == "coupon" and isinstance(offer, dict) and not groups[
            "primary"] and offer.get("title"):
        groups["primary"].append({"key": "offer.title", "label": offer.get("provider") or "",
                                  "value": str(offer["title"])})


def images_of(item: Pass, definition: dict[str, Any]) -> dict[str, str]:
    """Slot -> asset ID of the images the pass shows: its template's, its own over them
    (the designer's sample pass has none of its own)."""
    return {**definition_read.image_refs(definition), **(getattr(item, "images", None) or {})}


def expires_at(item: Pass, definition: dict[str, Any]) -> str | None:
    """When the pass expires: its own date, else its template's, else None (never)."""
    return per_pass.expiry(item.expires_at, definition)


def expired(item: Pass, definition: dict[str, Any]) -> bool:
    """Whether the pass's expiry has passed (a voided pass says voided, not expired)."""
    return item.status != "voided" and per_pass.is_expired(item.expires_at, definition,
                                                            clock.now())


def expired_ids(items: list[Pass]) -> set[str]:
    """The IDs of those of `items` (a page of a list) whose expiry has passed."""
    return {item.id for item in items if expired(item, revisions.definition_of(
        item.template_id, item.template_revision) or {})}


def barcode_message(item: Pass, definition: dict[str, Any]) -> str | None:
    """The text the barcode encodes for this pass."""
    barcode = definition.get("barcode")
    if not barcode:
        return None
    if barcode.get("perPass"):
        return item.barcode_value
    return placeholders(barcode.get("value", rules.DEFAULT_BARCODE_VALUE), item)


def placeholders(text: str | None, item: Pass) -> str | None:
    """`text` with `{{shortId}}` and `{{passId}}` filled in for the pass."""
    if text is None:
        return None
    return text.replace("{{shortId}}", item.short_id).replace("{{passId}}", item.id)


def issuer_name(item: Pass, definition: dict[str, Any]) -> str:
    """Who issued the pass, as the pass names it: the design's organizationName, else the
    organization's name."""
    if definition.get("organizationName"):
        return str(definition["organizationName"])
    organization = db.session.get(Organization, item.organization_id)
    return organization.name if organization else ""
