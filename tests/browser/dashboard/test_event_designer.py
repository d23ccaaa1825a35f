"""The designer's event section in Chromium: the kind of event, the venue's place and the
fields that give the seat are chosen there and saved into the definition."""

from __future__ import annotations

from typing import Any

from tests.browser.dashboard.conftest import sign_in
from tests.support.browser import SCREENSHOTS


def test_event_kind_venue_place_and_seat_fields_are_saved(
        page_for: Any, live_server: Any, owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/dashboard/test/templates/new")
    page.fill("#f-name", "Film night")
    page.check("input[name=type][value=event_ticket]")
    page.click("text=Create and design")
    page.wait_for_selector("#design-form")
    template_id = page.url.rsplit("/", 1)[1]
    assert page.locator("[name='img-footer']").count() == 0
    page.select_option("#f-event-category", "movie")
    page.fill("#f-event-venue_latitude", "52.52")
    page.fill("#f-event-venue_longitude", "13.405")
    page.select_option("#f-event-seat-number", "seat")
    page.select_option("#f-event-seat-row", "number")
    section = page.locator("section.card", has_text="Kind of event")
    page.set_viewport_size({"width": 1280, "height": 2400})  # the whole section, no save bar on it
    section.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    section.screenshot(path=str(SCREENSHOTS / "dashboard-designer-event-seat.png"))
    page.click("#save-design")
    page.locator(".saved-note", has_text="Saved as revision 2.").wait_for()
    with live_server.app.app_context():
        from webapp.services.templates import revisions

        stored = revisions.definition_of(template_id, 2)
    assert stored is not None
    event = stored["event"]
    assert event["category"] == "movie"
    assert event["venue"]["location"] == {"latitude": 52.52, "longitude": 13.405}
    assert event["seatFields"] == {"row": "number", "number": "seat"}
