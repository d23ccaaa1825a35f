"""The pass preview is drawn once (templates/shared/_pass_preview.html): the pass page, the
designer and the holder page show the same rows; voided and expired passes say so; an event
ticket's Apple card names its event, venue and date."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest

from tests.api.factories import definition, template_body
from tests.conftest import Api
from tests.dashboard.conftest import Dash, text
from webapp import clock
from webapp.services.templates import previews


def card(html: str, wallet: str = "apple") -> str:
    """The `<article>` of one wallet's card."""
    found = re.search(rf'<article class="pp-card pp-{wallet}\b.*?</article>', html, re.S)
    assert found is not None, f"no {wallet} card"
    return found.group(0)


def rows(html: str, wallet: str = "apple") -> list[tuple[str, str]]:
    """(label, value) of a card's front, top to bottom."""
    return re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", card(html, wallet))


def state(html: str, wallet: str = "apple") -> str:
    article = card(html, wallet)
    found = re.search(r'<article class="pp-card pp-\w+ pp-\w+ pp-(\w+)"', article)
    assert found is not None
    stamp = re.findall(r'<p class="pp-state">(.*?)</p>', article)
    assert (found.group(1) == "active") == (stamp == [])
    return found.group(1) + (f" ({stamp[0]})" if stamp else "")


def _template(api: Api, **changes: Any) -> str:
    created = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                         "definition": definition(**changes)})
    assert created.status_code == 201, created.get_json()
    return str(created.get_json()["id"])


def _pass(api: Api, template_id: str) -> dict[str, Any]:
    issued = api.post("/v1/passes", {"templateId": template_id, "holderName": "Ada Lovelace",
                                     "fieldValues": {"member": "Ada Lovelace",
                                                     "level": "Gold"}})
    assert issued.status_code == 201, issued.get_json()
    return dict(issued.get_json())


def test_pass_page_holder_page_and_designer_draw_the_same_rows(dash: Dash, api: Api,
                                                               client: Any) -> None:
    template_id = _template(api)
    item = _pass(api, template_id)
    expected = [("Member", "Ada Lovelace"), ("Level", "Gold"), ("Club", "Downtown")]
    pass_page = text(dash.get(f"/dashboard/test/passes/{item['id']}"))
    holder_page = client.get(f"/p/{item['shortId']}").get_data(as_text=True)
    assert rows(pass_page) == rows(holder_page) == expected
    assert rows(pass_page, "google") == [("Level", "Gold"), ("Club", "Downtown")]
    assert '<p class="pp-g-title">Ada Lovelace</p>' in card(pass_page, "google")  # the title
    # the holder page draws one card (its device's wallet's; tests/browser/holder compare
    # the Google card, with a Google that takes the pass), and the holder's name once
    assert "pp-google" not in holder_page
    assert holder_page.count("Ada Lovelace") == 1
    designer = text(dash.get(f"/dashboard/test/templates/{template_id}"))
    assert rows(designer) == [("Member", "\u2039Member\u203a"), ("Level", "\u2039Level\u203a"),
                              ("Club", "Downtown")]  # sample values for per-pass fields


def test_voided_pass_looks_voided_on_the_pass_page(dash: Dash, api: Api, client: Any) -> None:
    item = _pass(api, _template(api))
    assert state(text(dash.get(f"/dashboard/test/passes/{item['id']}"))) == "active"
    assert dash.post(f"/dashboard/test/passes/{item['id']}/void").status_code == 303
    page = text(dash.get(f"/dashboard/test/passes/{item['id']}"))
    assert state(page) == state(page, "google") == "voided (Voided)"
    holder = client.get(f"/p/{item['shortId']}")  # the holder's page says so, without the card
    assert holder.status_code == 410 and "pp-card" not in holder.get_data(as_text=True)


def test_expired_pass_looks_expired_on_every_page_the_designer_stays_active(
        dash: Dash, api: Api, client: Any) -> None:
    later = clock.now() + timedelta(minutes=10)  # within the dashboard session's limits
    template_id = _template(api, expiresAt=clock.isoformat(later))
    item = _pass(api, template_id)
    pages = {"pass": f"/dashboard/test/passes/{item['id']}",
             "designer": f"/dashboard/test/templates/{template_id}"}
    assert state(text(dash.get(pages["pass"]))) == "active"
    assert state(client.get(f"/p/{item['shortId']}").get_data(as_text=True)) == "active"
    clock.set_now(lambda: later + timedelta(seconds=1))
    try:
        page = text(dash.get(pages["pass"]))
        assert state(page) == state(page, "google") == "expired (Expired)"
        holder = client.get(f"/p/{item['shortId']}")
        assert holder.status_code == 200
        assert state(holder.get_data(as_text=True)) == "expired (Expired)"
        german = client.get(f"/p/{item['shortId']}", headers={"Accept-Language": "de"})
        assert state(german.get_data(as_text=True)) == "expired (Abgelaufen)"
        assert state(text(dash.get(pages["designer"]))) == "active"
    finally:
        clock.set_now(None)


def test_event_tickets_apple_card_shows_event_venue_and_date(dash: Dash, api: Api,
                                                             client: Any) -> None:
    created = api.post("/v1/templates", template_body("event"))
    assert created.status_code == 201, created.get_json()
    designer = card(text(dash.get(f"/dashboard/test/templates/{created.get_json()['id']}")))
    assert '<p class="event-name">The Show</p>' in designer
    assert '<p><time datetime="2027-01-01T20:00:00Z">Fri, Jan 1, 2027, 8:00\u202fPM</time></p>' \
        in designer
    assert "<p>Hall, 1 Main St</p>" in designer
    item = api.post("/v1/passes", {"templateId": created.get_json()["id"],
                                   "fieldValues": {"seat": "A12"}, "barcodeValue": "T-1"})
    page = card(text(dash.get(f"/dashboard/test/passes/{item.get_json()['id']}")))
    holder = card(client.get(f"/p/{item.get_json()['shortId']}").get_data(as_text=True))
    for drawn in (page, holder):
        assert '<p class="event-name">The Show</p>' in drawn and "Hall, 1 Main St" in drawn
        assert '<time datetime="2027-01-01T20:00:00Z">' in drawn


@pytest.mark.parametrize(("given", "expected"), [
    (None, ("#ffffff", "#000000", "#000000")),  # Apple's default: black on white
    ({"background": "#112233", "foreground": "#ffffff"}, ("#112233", "#ffffff", "#ffffff")),
    ({"background": "#000000", "foreground": "#ffffff", "label": "#ff0000"},
     ("#000000", "#ffffff", "#ff0000")),  # a template's label colour is kept
    ({"background": "red", "foreground": "#fff", "label": 7}, ("#ffffff", "#000000", "#000000")),
])
def test_card_colours_default_to_what_wallets_show(given: Any, expected: tuple[str, ...]
                                                   ) -> None:
    got = previews.colors({} if given is None else {"colors": given})
    assert (got["background"], got["foreground"], got["label"]) == expected
