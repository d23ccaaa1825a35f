"""Signed `.pkpass` files: built from a pass's template revision and values, signed with
the pass's identity (the demo one for test passes, the organization's certificate for
live ones), and kept per (pass, version) so a repeated download is not signed again.

The version of a pass determines everything in its bundle: values, voiding and, through
the update that produced that version, which fields carry a `changeMessage`.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from webapp import clock, settings, vault
from webapp.domain import balances, translations
from webapp.extensions import db
from webapp.models import Asset, Pass, PassUpdate
from webapp.services.credentials import identities
from webapp.services.insights import record as insights
from webapp.services.passes import download_links, views
from webapp.services.templates import revisions
from webapp.wallets import images
from webapp.wallets.apple import bundle, pass_json, signing, store_card, strings

MIME_TYPE = bundle.MIME_TYPE
CACHE_BYTES = 64 * 1024 * 1024  # signed bundles kept per process
_cache: OrderedDict[tuple[str, ...], bytes] = OrderedDict()
_cache_size = 0
IMAGE_SETS = 128  # template revisions whose converted images are kept
_image_sets: OrderedDict[tuple[str, ...], bundle.ImageSet] = OrderedDict()
_lock = threading.Lock()


class AppleUnavailable(Exception):
    """The pass cannot be signed now; `reason` is an `artifacts.apple.reason` value."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Download:
    """A signed pass for a holder, or why not: `gone` (voided | expired | revoked) or
    `unavailable` (an `artifacts.apple.reason`)."""

    data: bytes | None = None
    gone: str | None = None
    unavailable: str | None = None
    short_id: str | None = None


def for_short_id(short_id: str) -> Download:
    """The pass behind a permanent page (an active pass's holder followed "Add to Apple
    Wallet": an add intent is recorded).

    :raises NotFound: no such pass, or it is not issued for Apple Wallet.
    """
    return _download(download_links.by_short_id(short_id, "apple"))


def for_token(token: str) -> Download:
    """The pass behind a download link (an add intent, as `for_short_id`).

    :raises NotFound: no such link, or its pass is not issued for Apple Wallet.
    """
    return _download(download_links.by_token(token, "apple"))


def _download(found: download_links.Resolved) -> Download:
    if found.pass_ is None:
        return Download(gone=found.gone)
    insights.add_intent(found.pass_, "apple")
    try:
        return Download(data=signed(found.pass_), short_id=found.pass_.short_id)
    except AppleUnavailable as exc:
        return Download(unavailable=exc.reason)


def signed(item: Pass) -> bytes:
    """The signed bundle of the pass's current version (kept once signed).

    :raises AppleUnavailable: no usable identity (`credentials_missing`,
        `certificate_expired`) or an unreadable template image (`wallet_unavailable`).
    """
    identity = _identity(item)
    key = (item.id, str(item.version), identity.id,
           hashlib.sha256(identity.certificate_pem.encode()).hexdigest(),
           str(settings.get("BASE_URL")))
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    data = build(item, identity)
    _keep(key, data)
    return data


def build(item: Pass, identity: identities.AppleIdentity) -> bytes:
    """Render, sign and pack the pass's current version (no cache).

    :raises AppleUnavailable: an image of the template cannot be read.
    """
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    if item.images:  # the pass's own images over the template's (a copy: revisions are kept)
        definition = {**definition, "images": views.images_of(item, definition)}
    doc = pass_json.render(definition, content(item, definition, identity))
    style = pass_json.STYLES.get(str(definition.get("type")), "generic")
    template_images = _images(item, definition, style)
    files = bundle.pass_files(doc)
    files.update(_localizations(item, definition, doc, identity))
    manifest = bundle.manifest(template_images, files)
    signer = signing.signer(identity.certificate_pem, identity.wwdr_pem,
                            identity.private_key_pem)
    return bundle.pack(template_images, files, manifest, signer.sign(manifest))


def content(item: Pass, definition: dict[str, Any], identity: identities.AppleIdentity
            ) -> pass_json.PassContent:
    """What the pass puts into pass.json beyond its template."""
    barcode = definition.get("barcode") if isinstance(definition.get("barcode"), dict) else {}
    alt = barcode.get("altText") if barcode else None
    return pass_json.PassContent(
        serial_number=item.id, pass_type_identifier=identity.pass_type_identifier,
        team_identifier=identity.team_identifier, field_values=item.field_values or {},
        barcode_message=views.barcode_message(item, definition),
        barcode_alt_text=views.placeholders(alt, item) if isinstance(alt, str) else None,
        web_service_url=web_service_url(), authentication_token=authentication_token(item),
        voided=item.status == "voided", notify_keys=notify_keys(item),
        expiration_date=item.expires_at, relevant_date=item.relevant_date,
        checked_in_at=item.last_redeemed_at, holder_name=item.holder_name,
        balance=_balance(item, definition), tier=_tier(item, definition),
        message=item.message)


def _balance(item: Pass, definition: dict[str, Any]) -> store_card.Balance | None:
    """A loyalty or gift card's balance as Apple shows it (money in major units)."""
    if item.balance is None:
        return None
    code = balances.currency(definition)
    if definition.get("type") == "gift_card" and code is not None:
        major = balances.major_units(item.balance, code)
        value: int | float = int(major) if balances.CURRENCIES[code] == 0 else float(major)
        return store_card.Balance(value, "Balance", code)
    return store_card.Balance(item.balance, balances.points_label(definition))


def _tier(item: Pass, definition: dict[str, Any]) -> store_card.TierShown | None:
    tier = balances.tier_for(definition, item.lifetime_points)
    if tier is None:
        return None
    return store_card.TierShown(tier.name, tier.background, tier.foreground, tier.label)


def _localizations(item: Pass, definition: dict[str, Any], doc: dict[str, Any],
                   identity: identities.AppleIdentity) -> dict[str, bytes]:
    """`<lang>.lproj/pass.strings`: pass.json rendered in each of the template's languages,
    keyed by the default language's texts (`wallets.apple.strings`)."""
    languages = translations.languages(definition)
    if not languages:
        return {}
    pass_content = content(item, definition, identity)
    rendered = {language: pass_json.render(translations.localize(definition, language),
                                           pass_content) for language in languages}
    return strings.localization_files(doc, rendered,
                                      translations.default_language(definition))


def web_service_url() -> str:
    """`webServiceURL` of every pass: `{BASE_URL}/wallet/apple`."""
    return f"{settings.get('BASE_URL')}/wallet/apple"


def notify_keys(item: Pass) -> frozenset[str]:
    """The fields whose change this version announces (the update's, in `notify` mode)."""
    if item.version <= 1:  # as issued: no update made this version
        return frozenset()
    record = db.session.scalar(select(PassUpdate).where(
        PassUpdate.pass_id == item.id, PassUpdate.pass_version == item.version,
        PassUpdate.kind.in_(("update", "message"))).limit(1))
    if record is None or record.notification_mode != "notify":
        return frozenset()
    return frozenset(str(change.get("key")) for change in record.changes or [])


def pass_type_identifier(item: Pass) -> str | None:
    """The pass type identifier a pass is signed under (the demo one for test passes)."""
    if item.apple_certificate_id == identities.DEMO:
        return identities.demo_apple().pass_type_identifier
    return item.apple_pass_type_identifier


def _identity(item: Pass) -> identities.AppleIdentity:
    identity = identities.apple_identity(item.organization_id, item.apple_certificate_id)
    if identity is None:
        raise AppleUnavailable("credentials_missing")
    if identity.id != identities.DEMO:
        cert = identities.find_certificate(item.organization_id, identity.id)
        if cert is not None and cert.expires_at <= clock.now():
            raise AppleUnavailable("certificate_expired")
    return identity


def _images(item: Pass, definition: dict[str, Any], style: str) -> bundle.ImageSet:
    """The bundle's images for a template revision and the pass's own images, with their
    digests and zip entries (assets never change: kept per process).

    :raises AppleUnavailable: an image cannot be read (`wallet_unavailable`).
    """
    key = ("images", item.organization_id, item.template_id, str(item.template_revision),
           *sorted(f"{slot}={ref}" for slot, ref in (item.images or {}).items()))
    with _lock:
        found = _image_sets.get(key)
        if found is not None:
            _image_sets.move_to_end(key)
            return found
    colors = definition.get("colors") or {}
    try:
        built = bundle.image_set(bundle.image_files(
            style, _sources(item, definition),
            icon_letter=str(definition.get("organizationName") or "?"),
            # (a missing color is "": the generated icon falls back to its default)
            background=colors.get("background") or "", foreground=colors.get("foreground") or ""))
    except images.ImageError:
        raise AppleUnavailable("wallet_unavailable") from None
    with _lock:
        _image_sets[key] = built
        while len(_image_sets) > IMAGE_SETS:
            _image_sets.popitem(last=False)
    return built


def _sources(item: Pass, definition: dict[str, Any]) -> dict[str, bytes]:
    refs = {slot: ref for slot, ref in (definition.get("images") or {}).items()
            if isinstance(ref, str)}
    if not refs:
        return {}
    rows = db.session.execute(select(Asset.id, Asset.data).where(
        Asset.id.in_(set(refs.values())), Asset.organization_id == item.organization_id))
    data = {row.id: row.data for row in rows}
    return {slot: data[ref] for slot, ref in refs.items() if ref in data}


def _keep(key: tuple[str, ...], data: bytes) -> None:
    global _cache_size
    with _lock:
        if key in _cache:
            return
        _cache[key] = data
        _cache_size += len(data)
        while _cache_size > CACHE_BYTES and len(_cache) > 1:
            _old, dropped = _cache.popitem(last=False)
            _cache_size -= len(dropped)


def authentication_token(item: Pass) -> str:
    """The pass's `authenticationToken`, decrypted (it is stored encrypted)."""
    return vault.decrypt(item.auth_token_encrypted.encode()).decode()
