"""The holder page's presentation: device from User-Agent, button order, the card in the
reader's language, Open Graph data and the security headers (strict CSP with a hash for the
theme colours); the pass's page as every public door answers it (its wallet links too, when
they fail).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import Response, current_app, g, make_response, render_template, request, url_for
from flask_babel import get_locale

from webapp.errors import NotFound
from webapp.services.passes import holder
from webapp.services.templates import previews
from webapp.wallets import barcodes

_IOS = re.compile(r"\b(iPhone|iPad|iPod)\b")
_ANDROID = re.compile(r"\bAndroid\b")
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")
ORDER = {"ios": ("apple", "google"), "android": ("google", "apple"),
         "desktop": ("apple", "google")}
_IMAGE_PREFERENCE = ("strip", "hero", "logo", "thumbnail", "icon")
_CSP = ("default-src 'none'; img-src 'self'; style-src 'self'{theme}; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'")
RETRY_AFTER = "30"  # seconds, when a wallet did not answer: it is worth a try a minute later


def device() -> str:
    """`ios`, `android` or `desktop`, from the request's User-Agent."""
    agent = request.headers.get("User-Agent", "")
    if _IOS.search(agent):
        return "ios"
    if _ANDROID.search(agent):
        return "android"
    return "desktop"


def wallet_order(page: holder.HolderPage, kind: str) -> list[str]:
    """The wallets to offer, the device's own first."""
    return [w for w in ORDER[kind] if w in page.wallets]


def theme_css(card: holder.Card) -> str:
    """The card's colours as CSS custom properties (validated `#rrggbb` only)."""
    colors = card.preview["colors"]  # checked by the preview; checked again, being CSS
    if not all(_COLOR.fullmatch(colors[name]) for name in ("background", "foreground", "label")):
        colors = {"background": "#ffffff", "foreground": "#000000", "label": "#000000"}
    return (f":root{{--card-bg:{colors['background']};--card-fg:{colors['foreground']};"
            f"--card-label:{colors['label']}}}")


def page_url(path: str) -> str:
    """A holder page's public address (BASE_URL, not the Host header)."""
    return f"{current_app.config['BASE_URL']}{path}"


def page_qr(path: str, *, private: bool) -> str:
    """A QR code of the page's address, for desktop visitors to scan with a phone.

    Permanent pages' codes are kept (drawing one takes a few ms); a download link's code
    carries its token and is drawn each time, so no token lingers in memory.
    """
    url = page_url(path)
    return barcodes.qr(url) if private else _permanent_qr(url)


@lru_cache(maxsize=1024)
def _permanent_qr(url: str) -> str:
    return barcodes.qr(url)


def preview_wallets(page: holder.HolderPage, kind: str) -> list[str]:
    """The one card the page draws: the first wallet it offers (the device's own first),
    else the first the design is for."""
    assert page.card is not None
    platforms = page.card.preview["platforms"]
    drawn = wallet_order(page, kind) or [w for w in ORDER[kind] if platforms.get(w, True)]
    return drawn[:1] or ["apple"]


def asset_url(image: holder.Image, *, absolute: bool = False) -> str:
    """The public address of a template image."""
    path = url_for("distribution.asset_bytes", asset_id=image.asset_id)
    return f"{current_app.config['BASE_URL']}{path}" if absolute else path


def share_image(card: holder.Card) -> holder.Image | None:
    """The image a link preview shows: the widest picture the page itself shows."""
    for slot in _IMAGE_PREFERENCE:
        if slot in card.images:
            return card.images[slot]
    return None


def csp(theme: str | None = None) -> str:
    """The Content-Security-Policy: nothing inline but the theme block, by its hash."""
    if theme is None:
        return _CSP.format(theme="")
    digest = base64.b64encode(hashlib.sha256(theme.encode()).digest()).decode()
    return _CSP.format(theme=f" 'sha256-{digest}'")


def secure(response: Response, *, private: bool, theme: str | None = None) -> Response:
    """Security, caching and language headers of every holder page (nosniff, framing and
    `Referrer-Policy: no-referrer` come with every public answer: `webapp.security_headers`)."""
    headers = response.headers
    headers["Content-Security-Policy"] = csp(theme)
    headers["X-Robots-Tag"] = "noindex, nofollow"
    headers["Cross-Origin-Opener-Policy"] = "same-origin"
    headers["Content-Language"] = lang()
    headers["Vary"] = "Accept-Language, User-Agent"
    headers["Cache-Control"] = "no-store" if private else "private, no-cache"
    return response


def gone(reason: str, status: int, *, private: bool, issuer: str | None = None) -> Response:
    """The page of a pass that is not there: `unknown` (404), or voided/expired/revoked (410);
    a voided pass's page names its `issuer`."""
    body = render_template("holder/gone.html", reason=reason, issuer=issuer)
    return secure(make_response(body, status), private=private)


def respond(find: Callable[[], holder.HolderPage], *, private: bool) -> Response:
    """The pass's page: active (200), gone (410) or unknown (404)."""
    try:
        page = find()
    except NotFound:
        return gone("unknown", 404, private=private)
    if page.gone is not None:
        return gone(page.gone, 410, private=private, issuer=page.organization_name)
    return render(page, private=private)


def render(page: holder.HolderPage, *, private: bool, status: int = 200,
           unreachable: str | None = None) -> Response:
    """An active pass's page; `unreachable`: the wallet that did not answer just now."""
    values = context(page, private=private)
    body = render_template("holder/pass.html", unreachable=unreachable, **values)
    return secure(make_response(body, status), private=private, theme=values["theme"])


def wallet_refused(find: Callable[[], holder.HolderPage], wallet: str, reason: str, *,
                   private: bool) -> Response:
    """What a wallet link answers when its wallet cannot take the pass: the pass's page
    saying why, in the holder's language. 503 with Retry-After when the wallet did not
    answer (a minute later it may); else 200 without that wallet's button, since the page
    (the card, the other wallet) is what the holder can use now."""
    try:
        page = find()
    except NotFound:  # deleted since the link was resolved
        return gone("unknown", 404, private=private)
    if page.gone is not None:
        return gone(page.gone, 410, private=private, issuer=page.organization_name)
    if holder.try_again_soon(wallet, reason):
        g.retry_after = RETRY_AFTER  # the app-wide hook keeps only intended Retry-After
        response = render(page, private=private, status=503, unreachable=wallet)
    else:
        response = render(holder.without(page, wallet), private=private)
    response.headers["Cache-Control"] = "no-store"  # the wallet's state of this moment
    return response


def context(page: holder.HolderPage, *, private: bool) -> dict[str, Any]:
    """Everything pass.html needs beyond the page itself."""
    kind = device()
    card = page.card
    assert card is not None
    theme = theme_css(card)
    base = "download_page" if private else "pass_page"
    assert request.view_args is not None  # set once a route matched
    key = {"token": request.view_args["token"]} if private else {"short_id": page.short_id}
    home = url_for(f"distribution.{base}", **key)  # also when a wallet link answers
    return {
        "page": page, "card": card, "device": kind, "theme": theme,
        "preview": previews.localize(card.preview, lang()),
        "preview_wallets": preview_wallets(page, kind),
        "preview_stylesheet": stylesheet("shared/pass-preview.css"),
        "wallets": wallet_order(page, kind),
        "links": {"apple": home + "/apple.pkpass", "google": home + "/google"},
        "qr": page_qr(home, private=private) if kind == "desktop" else None,
        "share": share_image(card), "canonical": None if private else page_url(home),
        "asset_url": asset_url,
    }


def reader_languages() -> list[str]:
    """The reader's languages from `Accept-Language`, best first: the pass's own texts
    follow them (any language its template has, not only the page's four)."""
    tags = [tag for tag, quality in request.accept_languages if quality > 0 and tag != "*"]
    return tags[:10]


def lang() -> str:
    """The page's language tag (`en`, `de`, `fr`, `es`)."""
    return str(get_locale() or "en")


def stylesheet(filename: str = "holder/holder.css") -> str:
    """A stylesheet's URL (the holder's, or the pass preview's), versioned by its content so
    a change is seen at once."""
    return url_for("static", filename=filename, v=_css_version(filename))


_version: dict[str, str] = {}


def _css_version(filename: str) -> str:
    if filename not in _version:
        path = f"{current_app.static_folder}/{filename}"
        with open(path, "rb") as fh:
            _version[filename] = hashlib.sha256(fh.read()).hexdigest()[:10]
    return _version[filename]
