"""The designer's languages in Chromium: add a language, write its texts in the column next
to the default ones, switch the preview to it, save. Screenshot:
tests/browser/screenshots/dashboard-designer-languages.png."""

from __future__ import annotations

from typing import Any

from tests.browser.dashboard.conftest import sign_in
from tests.browser.test_accessibility import serious_violations
from tests.support.browser import SCREENSHOTS


def test_add_a_language_translate_preview_and_save(page_for: Any, live_server: Any,
                                                   owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    page.set_viewport_size({"width": 1400, "height": 1000})
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/dashboard/test/templates/new")
    page.fill("#f-name", "Gym card")
    page.click("text=Create and design")
    page.wait_for_selector("#design-form")
    template_id = page.url.rsplit("/", 1)[1]
    page.fill("#f-new-language", "de")
    page.click("button[aria-label='Add language']")
    page.wait_for_selector("[id='tr.de.description']")
    page.fill("[id='tr.de.description']", "Mitgliedskarte")
    page.fill("[id='tr.de.fields.holder.label']", "Mitglied")
    page.fill("[id='tr.de.fields.number.label']", "Nummer")
    preview = page.locator("#preview")
    page.locator("#preview-language").select_option("de")
    preview.locator("text=Mitglied").first.wait_for()
    preview.locator("text=Nummer").first.wait_for()  # typed just before: the last redraw
    section = page.locator("#languages")
    section.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "dashboard-designer-languages.png"))
    assert serious_violations(page, "#languages") == []  # axe-core, as the a11y tests run it
    page.locator("#preview-language").select_option("")
    preview.locator("text=Name").first.wait_for()
    assert "Mitglied" not in (preview.text_content() or "")
    page.click("#save-design")
    page.locator(".saved-note", has_text="Saved as revision 2.").wait_for()
    with live_server.app.app_context():
        from webapp.services.templates import revisions

        stored = revisions.definition_of(template_id, 2)
    assert stored is not None
    assert stored["translations"] == {"de": {
        "description": "Mitgliedskarte",
        "fields": {"holder": {"label": "Mitglied"}, "number": {"label": "Nummer"}}}}
