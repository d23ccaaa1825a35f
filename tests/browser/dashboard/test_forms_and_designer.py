"""The issue form and the designer in Chromium: one name input, the server's errors next to
their inputs, the save answer by the save button, the phone preview, and a designer that
does not lose work."""

from __future__ import annotations

import re
from typing import Any

from tests.browser.dashboard.conftest import sign_in
from tests.support.browser import SCREENSHOTS, screenshot


def _new_template(page: Any, base: str, name: str = "Club card") -> str:
    """A generic template made in the dashboard (its starter has a per-pass `holder` field)."""
    page.goto(f"{base}/dashboard/test/templates/new")
    page.fill("#f-name", name)
    page.click("text=Create and design")
    page.wait_for_selector("#design-form")
    return str(page.url.rsplit("/", 1)[1])


def _in_view(page: Any, selector: str) -> bool:
    """The element is visible inside the viewport (not somewhere above or below it)."""
    return bool(page.eval_on_selector(selector, """(el) => {
        const box = el.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight; }"""))


def _view_shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def test_issue_form_asks_for_the_name_once_and_errors_come_back_inline(
        page_for: Any, live_server: Any, owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    sign_in(page, live_server.url)
    template_id = _new_template(page, live_server.url)
    page.goto(f"{live_server.url}/dashboard/test/passes/new?template={template_id}")
    assert page.locator("#issue-form label", has_text=re.compile(r"^Name\b")).count() == 1
    assert page.locator("#f-holder_name").count() == 0
    page.click("text=Issue pass")  # nothing typed: the server answers, not a browser popup
    error = page.locator("#err-fv-holder")
    error.wait_for()
    assert error.inner_text() == "Name is required."
    assert page.get_attribute("#f-fv-holder", "aria-describedby") == "err-fv-holder"
    assert page.get_attribute("#f-fv-holder", "aria-invalid") == "true"
    screenshot(page, "dashboard-issue-form-errors")
    page.fill("#f-fv-holder", "Ada Müller")
    page.click("text=Issue pass")
    page.wait_for_url(re.compile(r"/dashboard/test/passes/pass_"))
    assert "Ada Müller" in page.locator("main").inner_text()


def test_designer_answers_by_the_save_button_and_keeps_unsaved_work(
        page_for: Any, live_server: Any, owner: dict[str, Any]) -> None:
    page = page_for("desktop")
    sign_in(page, live_server.url)
    base = f"{live_server.url}/dashboard/test/templates"
    template_id = _new_template(page, live_server.url)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.accept()))
    # each edit button marks the design as changed
    for button in ("#group-header >> text=+ Add field", "[title='Move down'] >> nth=0",
                   "[title='Remove field'] >> nth=0"):
        page.goto(f"{base}/{template_id}")
        assert page.locator(".dirty-note").is_hidden()
        page.locator(button).click()
        page.locator(".dirty-note").wait_for(state="visible")
        assert page.get_attribute("#design-form", "data-dirty") == "1", button
    # a failed save keeps the warning and says each problem, in words, at its input
    page.fill("#f-organizationName", "")
    page.fill("#f-secondary-0-key", "")
    page.click("#save-design")
    page.locator("#problems").wait_for()
    assert page.locator(".dirty-note").is_visible()
    for name, words in (("organizationName", "The template needs an organization name."),
                        ("f-secondary-0-key", "The secondary row's first field needs a key.")):
        assert page.get_attribute(f"[name='{name}']", "aria-describedby") == f"err-{name}"
        field = page.locator(".field", has=page.locator(f"[name='{name}']"))
        assert field.locator(".field-error").inner_text() == words
    assert "config.fields" not in page.locator("#designer").inner_text()
    assert _in_view(page, ".savebar-problem")
    _view_shot(page, "dashboard-designer-failed-save")
    # leaving with unsaved changes asks first
    dialogs.clear()
    page.click(".crumbs >> text=Templates")
    page.wait_for_url(base)
    assert dialogs == ["beforeunload"]
    # a good save answers next to the button, where the person is looking
    page.goto(f"{base}/{template_id}")
    page.fill("#f-description", "A card for club members")
    page.click("#save-design")
    page.locator(".saved-note", has_text="Saved as revision 2.").wait_for()
    assert _in_view(page, ".saved-note")
    assert page.get_attribute("#design-form", "data-dirty") is None
    _view_shot(page, "dashboard-designer-saved")


def test_designer_keeps_the_preview_in_view_on_a_phone(
        page_for: Any, live_server: Any, owner: dict[str, Any]) -> None:
    page = page_for("iphone")
    sign_in(page, live_server.url)
    _new_template(page, live_server.url)
    page.locator("#f-secondary-0-label").scroll_into_view_if_needed()
    assert not _in_view(page, "#preview .pp-apple")
    page.click("[data-pin-preview]")
    assert page.get_attribute("[data-pin-preview]", "aria-pressed") == "true"
    page.fill("#f-secondary-0-label", "Member no.")
    page.locator("#preview .pp-apple", has_text="MEMBER NO.").or_(
        page.locator("#preview .pp-apple", has_text="Member no.")).first.wait_for()
    assert page.eval_on_selector("#preview", """(el) => {
        const box = el.getBoundingClientRect();
        return box.top >= 0 && box.top < innerHeight - 100; }""")
    _view_shot(page, "dashboard-designer-phone-preview")
    # an edit button redraws the designer: the preview stays pinned. (The browser's own
    # scrolling keeps clear of the pinned preview; Playwright's ignores scroll-padding.)
    add = page.locator("#group-header >> text=+ Add field")
    add.evaluate("(el) => el.scrollIntoView({block: 'nearest'})")
    assert add.evaluate("""(el) => { const box = el.getBoundingClientRect();
        return document.elementFromPoint(box.x + 2, box.y + 2) === el; }""")
    add.click()
    page.wait_for_selector("#f-header-0-key")
    _view_shot(page, "dashboard-designer-phone-preview-after-add")
    assert page.get_attribute("[data-pin-preview]", "aria-pressed") == "true"
