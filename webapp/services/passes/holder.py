"""What a holder's page shows: the pass behind a short ID or a download-link token.

`HolderPage.state` is `active`, or why the pass is gone (`voided`, `expired`, `revoked`).
A gone page carries nothing of the pass (no card, no names) but, for a voided pass, the name
of its issuer: the holder should know whom to ask.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select

from webapp.domain import definition as rules
from webapp.extensions import db
from webapp.models import Asset, Pass
from webapp.services.passes import download_links, views
from webapp.services.templates import revisions
from webapp.wallets import barcodes

WALLETS: tuple[str, ...] = ("apple", "google")
# Google readiness reasons a tap overcomes: the save link writes the object then (the job
# has not run yet, or Google did not answer last time). Any other reason means the wallet
# cannot take the pass now: the page says so instead of offering a button that would fail
# (decisions.md, "Holder pages").
_TRY_AGAIN = frozenset({"wallet_pending", "wallet_unavailable"})


@dataclass(frozen=True)
class Image:
    """A template image: its asset ID and pixel size (so the page reserves its box)."""

    asset_id: str
    width: int
    height: int


@dataclass(frozen=True)
class Field:
    """One field as the card shows it; `format` is text, number, date or dateTime."""

    key: str
    label: str
    value: str
    format: str = "text"


@dataclass(frozen=True)
class Barcode:
    """The barcode: its format, the encoded text, the text shown under it, and its SVG."""

    format: str
    message: str
    text: str
    svg: str | None


@dataclass(frozen=True)
class Card:
    """The pass drawn from its template revision and values."""

    type: str
    organization_name: str
    description: str
    logo_text: str | None
    background: str
    foreground: str
    label_color: str
    images: dict[str, Image]
    groups: dict[str, list[Field]]
    barcode: Barcode | None
    event: dict[str, Any] | None


@dataclass(frozen=True)
class HolderPage:
    """A pass ready to show, or why it is gone (`voided`, `expired`, `revoked`)."""

    pass_: Pass | None
    organization_name: str | None
    gone: str | None = None
    card: Card | None = None
    holder_name: str | None = None
    wallets: tuple[str, ...] = ()  # issued for and addable now, in WALLETS order
    unavailable: tuple[str, ...] = ()  # issued for, but not addable now
    short_id: str | None = None

    @property
    def state(self) -> str:
        """`active`, `voided`, `expired` or `revoked`."""
        return self.gone or "active"


def by_short_id(short_id: str) -> HolderPage:
    """The page of a pass's permanent link.

    :raises NotFound: no pass has this short ID.
    """
    return _page(download_links.by_short_id(short_id))


def by_token(token: str) -> HolderPage:
    """The page behind a download link.

    :raises NotFound: no link has this token.
    """
    return _page(download_links.by_token(token))


def _page(found: download_links.Resolved) -> HolderPage:
    if found.pass_ is None:
        return HolderPage(None, found.issuer, found.gone)
    item = found.pass_
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    artifacts = views.artifacts(item, definition)
    name = views.issuer_name(item, definition)
    card = _card(item, definition, name)
    issued = [w for w in WALLETS if getattr(item, w)]
    offered = {w for w in issued if addable(w, artifacts[w]["reason"])}
    return HolderPage(item, name, card=card, holder_name=item.holder_name,
                      wallets=tuple(w for w in issued if w in offered),
                      unavailable=tuple(w for w in issued if w not in offered),
                      short_id=item.short_id)


def addable(wallet: str, reason: str | None) -> bool:
    """Whether a wallet whose readiness says `reason` can take the pass now."""
    return reason is None or try_again_soon(wallet, reason)


def try_again_soon(wallet: str, reason: str) -> bool:
    """Whether a wallet that could not take the pass may take it a minute later: Google did
    not answer, or has not been asked yet (Apple's reasons all need the issuer to act)."""
    return wallet == "google" and reason in _TRY_AGAIN


def without(page: HolderPage, wallet: str) -> HolderPage:
    """The page with `wallet` no longer offered: its link has just failed for good."""
    return replace(page, wallets=tuple(w for w in page.wallets if w != wallet),
                   unavailable=tuple(w for w in WALLETS
                                     if w in page.unavailable or w == wallet))


def _card(item: Pass, definition: dict[str, Any], organization_name: str) -> Card:
    colors = definition.get("colors") or {}
    foreground = colors.get("foreground") or "#ffffff"
    groups: dict[str, list[Field]] = {group: [] for group in rules.GROUPS}
    for group, spec in rules.fields(definition):
        value = spec.get("value") if spec.get("binding") == "shared" else \
            item.field_values.get(spec.get("key", ""))
        if value is None or value == "":
            continue
        groups[group].append(Field(str(spec.get("key", "")), str(spec.get("label") or ""),
                                   str(value), str(spec.get("format") or "text")))
    return Card(
        type=str(definition.get("type") or "generic"), organization_name=organization_name,
        description=str(definition.get("description") or ""),
        logo_text=definition.get("logoText"),
        background=colors.get("background") or "#333333", foreground=foreground,
        label_color=colors.get("label") or foreground,
        images=_images(item.organization_id, rules.image_refs(definition)), groups=groups,
        barcode=_barcode(item, definition),
        event=definition.get("event") if isinstance(definition.get("event"), dict) else None)


def _images(organization_id: str, refs: dict[str, str]) -> dict[str, Image]:
    if not refs:
        return {}
    rows = db.session.execute(select(Asset.id, Asset.width, Asset.height).where(
        Asset.id.in_(set(refs.values())), Asset.organization_id == organization_id)).all()
    sizes = {row.id: (row.width, row.height) for row in rows}
    return {slot: Image(ref, *sizes[ref]) for slot, ref in refs.items() if ref in sizes}


def _barcode(item: Pass, definition: dict[str, Any]) -> Barcode | None:
    spec = definition.get("barcode")
    message = views.barcode_message(item, definition)
    if not isinstance(spec, dict) or not message:
        return None
    format_ = str(spec.get("format") or "qr")
    text = views.placeholders(spec.get("altText"), item) or message
    return Barcode(format_, message, text, barcodes.svg(format_, message))
