"""One rule decides which images each wallet shows (`wallets/shown_images`): the .pkpass,
the Google object and the previews follow it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import template_body
from tests.conftest import Api
from tests.dashboard.conftest import Dash, sign_in, text
from webapp.wallets import shown_images
from webapp.wallets.apple import bundle

ALL = {slot: f"asset_{slot}" for slot in ("icon", "logo", "strip", "thumbnail", "background",
                                           "hero")}


@pytest.mark.parametrize(("kind", "images", "apple"), [
    ("generic", ALL, {"icon", "logo", "thumbnail"}),
    ("event_ticket", ALL, {"icon", "logo", "strip"}),
    ("event_ticket", {k: v for k, v in ALL.items() if k != "strip"},
     {"icon", "logo", "background", "thumbnail"}),
])
def test_apple_shows_what_its_style_has(kind: str, images: dict[str, str],
                                        apple: set[str]) -> None:
    assert set(shown_images.apple(kind, images)) == apple
    style = "eventTicket" if kind == "event_ticket" else "generic"
    assert set(bundle.slots_for(style, set(images))) == apple  # what the .pkpass carries


@pytest.mark.parametrize(("images", "google"), [
    (ALL, {"logo": "asset_logo", "hero": "asset_hero"}),
    ({"icon": "asset_icon", "strip": "asset_strip"},
     {"logo": "asset_icon", "hero": "asset_strip"}),
    ({"thumbnail": "asset_thumbnail"}, {}),
])
def test_google_shows_a_logo_and_a_hero(images: dict[str, str], google: dict[str, str]) -> None:
    assert shown_images.google(images) == google


def test_the_designer_preview_draws_no_strip_on_apple_s_generic_card(
        client: Any, org: dict[str, Any], api: Api, png: Any) -> None:
    dash: Dash = sign_in(client, org["email"], org["password"])
    strip = api.post("/v1/assets", {"slot": "strip", "data": png(375, 123)}).get_json()["id"]
    template = api.post("/v1/templates", template_body(images={"strip": strip})).get_json()
    page = text(dash.get(f"/dashboard/test/templates/{template['id']}"))
    apple_card = page.split('data-card="apple"', 1)[1].split('data-card="google"', 1)[0]
    assert strip not in apple_card  # the iPhone never shows it
    google_card = page.split('data-card="google"', 1)[1].split("</article>", 1)[0]
    assert f'<img class="pp-hero" src="/assets/{strip}"' in google_card
