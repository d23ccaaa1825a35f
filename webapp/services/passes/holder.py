"""What a holder's page shows: the pass behind a short ID or a download-link token.

`HolderPage.state` is `active`, or why the pass is gone (`voided`, `expired`, `revoked`).
A gone page carries nothing of the pass (no card, no names) but, for a voided pass, the name
of its issuer: the holder should know whom to ask.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from webapp.domain import translations
from webapp.models import Pass
from webapp.services.passes import download_links, views
from webapp.services.templates import previews, revisions

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
class Card:
    """The pass on its page: who issued it, its description, its images with their sizes
    (a link preview's picture) and `preview`, the card every door draws
    (`services.templates.previews`)."""

    organization_name: str
    description: str
    images: dict[str, Image]
    preview: dict[str, Any]


@dataclass(frozen=True)
class HolderPage:
    """A pass ready to show, or why it is gone (`voided`, `expired`, `revoked`)."""

    pass_: Pass | None
    organization_name: str | None
    gone: str | None = None
    card: Card | None = None
    wallets: tuple[str, ...] = ()  # issued for and addable now, in WALLETS order
    unavailable: tuple[str, ...] = ()  # issued for, but not addable now
    short_id: str | None = None
    language: str | None = None  # of the pass's texts, when its template states one

    @property
    def state(self) -> str:
        """`active`, `voided`, `expired` or `revoked`."""
        return self.gone or "active"


def by_short_id(short_id: str, languages: Sequence[str] = ()) -> HolderPage:
    """The page of a pass's permanent link, in the first of the reader's `languages` (best
    first) its template has.

    :raises NotFound: no pass has this short ID.
    """
    return _page(download_links.by_short_id(short_id), languages)


def by_token(token: str, languages: Sequence[str] = ()) -> HolderPage:
    """The page behind a download link, in the reader's languages as `by_short_id`.

    :raises NotFound: no link has this token.
    """
    return _page(download_links.by_token(token), languages)


def _page(found: download_links.Resolved, languages: Sequence[str]) -> HolderPage:
    if found.pass_ is None:
        return HolderPage(None, found.issuer, found.gone)
    item = found.pass_
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    artifacts = views.artifacts(item, definition)
    language = translations.negotiate(languages, definition)
    stated = "defaultLanguage" in definition or bool(translations.languages(definition))
    definition = translations.localize(definition, language)
    name = views.issuer_name(item, definition)
    card = _card(item, definition, name)
    issued = [w for w in WALLETS if getattr(item, w)]
    offered = {w for w in issued if addable(w, artifacts[w]["reason"])}
    return HolderPage(item, name, card=card,
                      wallets=tuple(w for w in issued if w in offered),
                      unavailable=tuple(w for w in issued if w not in offered),
                      short_id=item.short_id, language=language if stated else None)


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
    preview = previews.for_pass(item, definition)
    images = {slot: Image(image["id"], image["width"], image["height"])
              for slot, image in preview["images"].items()}
    return Card(organization_name=organization_name,
                description=str(definition.get("description") or ""), images=images,
                preview=preview)
