"""Issue 31's staff pages as a person uses them in Chromium, each with a screenshot and axe
(nothing serious or critical): voiding several passes needs their count typed; the pass page
says what a demo identity can do (no red failure); "Skip to content" by keyboard; the CSV
preview finds a problem past the first ten rows; inviting someone and accepting the link.
Screenshots in tests/browser/screenshots/."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from tests.api.factories import member_import_definition
from tests.browser.dashboard.conftest import PASSWORD, organization_key, sign_in
from tests.browser.test_accessibility import serious_violations
from tests.support.browser import LiveServer, api, screenshot


def _owner(page_for: Any, server: LiveServer, device: str = "desktop") -> tuple[Any, str]:
    """A new organization's owner, signed in; its test API key."""
    email = f"staff-{uuid.uuid4().hex[:8]}@edges.test"
    key = organization_key(server, "Edges Co", email)
    page = page_for(device)
    sign_in(page, server.url, email)
    return page, key


def _template(server: LiveServer, key: str) -> dict[str, Any]:
    return api(server, key, "POST", "templates", {"name": "Gym", "type": "generic",
                                                  "definition": member_import_definition()})


def test_voiding_several_passes_needs_their_count_typed(page_for: Any,
                                                        live_server: LiveServer) -> None:
    page, key = _owner(page_for, live_server)
    template = _template(live_server, key)
    passes = [api(live_server, key, "POST", "passes", {
        "templateId": template["id"], "holderName": f"Bad test {n}",
        "fieldValues": {"member": f"M{n}", "level": "Silver"}}) for n in (1, 2, 10)]
    page.goto(f"{live_server.url}/dashboard/test/templates/{template['id']}/change")
    page.fill("#change-q", "Bad test 1")
    page.get_by_role("button", name="Find").click()
    # a search matches parts of names: "Bad test 1" finds Bad test 10 too, and says whom
    assert page.locator("#change-count").inner_text() == \
        "2 active passes of Gym in test contain “Bad test 1”."
    assert sorted(page.locator(".change-first li").all_inner_texts()) == [
        f"Bad test 1 {passes[0]['shortId']}", f"Bad test 10 {passes[2]['shortId']}"]
    void = page.locator("#run-void")
    assert void.inner_text() == "Void 2 passes"
    assert page.get_by_label("Type 2 to confirm voiding 2 passes").is_visible()
    screenshot(page, "dashboard-void-several-confirm")
    assert (found := serious_violations(page)) == [], json.dumps(found)
    page.get_by_label("Type 2 to confirm voiding 2 passes").fill("3")
    void.click()
    page.locator("#change-problem").wait_for()
    assert page.locator("#change-problem").inner_text() == (
        "Not voided: type 2 (the number of passes that match now) to confirm voiding 2 "
        "passes.")
    screenshot(page, "dashboard-void-several-refused")
    assert (found := serious_violations(page)) == [], json.dumps(found)
    assert [api(live_server, key, "GET", f"passes/{p['id']}")["status"] for p in passes] == [
        "active"] * 3
    page.get_by_label("Type 2 to confirm voiding 2 passes").fill("2")
    page.locator("#run-void").click()
    page.wait_for_url(f"{live_server.url}/dashboard/test/jobs/bjob_*")
    page.locator("#job-status", has_text="Completed").wait_for(timeout=30000)
    screenshot(page, "dashboard-void-several-done")
    assert [api(live_server, key, "GET", f"passes/{p['id']}")["status"] for p in passes] == [
        "voided", "active", "voided"]


def test_the_pass_page_says_what_a_demo_identity_can_do(page_for: Any,
                                                        live_server: LiveServer) -> None:
    page, key = _owner(page_for, live_server)
    item = api(live_server, key, "POST", "passes", {
        "templateId": _template(live_server, key)["id"],
        "fieldValues": {"member": "Ada", "level": "Gold"}})
    page.goto(f"{live_server.url}/dashboard/test/passes/{item['id']}")
    for wallet, badge in (("apple", "Demo certificate"), ("google", "Demo issuer")):
        card = page.locator(f"#wallet-{wallet}")
        assert card.locator(".badge").first.inner_text() == badge
        assert "gray" in (card.locator(".badge").first.get_attribute("class") or "")
        assert card.locator(".badge.red").count() == 0
        assert "One step makes test passes addable" in card.inner_text()
    assert "failed" not in page.locator("#wallet-google").inner_text().lower()
    page.locator("#wallet-google").scroll_into_view_if_needed()
    screenshot(page, "dashboard-pass-demo-identities")
    assert (found := serious_violations(page)) == [], json.dumps(found)


def test_skip_to_content_by_keyboard(page_for: Any, live_server: LiveServer) -> None:
    page, _key = _owner(page_for, live_server)
    page.goto(f"{live_server.url}/dashboard/test/passes")
    page.keyboard.press("Tab")  # the first thing a keyboard reaches
    focused = page.evaluate("[document.activeElement.className, "
                            "document.activeElement.textContent.trim()]")
    assert focused == ["skip-link", "Skip to content"]
    box = page.locator(".skip-link").bounding_box()
    assert box is not None and box["y"] >= 0  # shown while it has the focus
    screenshot(page, "dashboard-skip-link-focused")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.keyboard.press("Tab")  # the next Tab goes on inside the content, not the navigation
    assert page.evaluate("document.getElementById('main').contains(document.activeElement)")
    assert (found := serious_violations(page)) == [], json.dumps(found)


def test_the_csv_preview_finds_a_problem_past_the_first_ten_rows(
        page_for: Any, live_server: LiveServer) -> None:
    page, key = _owner(page_for, live_server)
    template = _template(live_server, key)
    rows = ["member,level"] + [f"{'' if n == 23 else f'Member {n}'},Gold" for n in
                               range(1, 26)]
    page.goto(f"{live_server.url}/dashboard/test/templates/{template['id']}/import")
    page.locator("#f-file").set_input_files(files=[{
        "name": "members.csv", "mimeType": "text/csv",
        "buffer": ("\r\n".join(rows) + "\r\n").encode()}])
    page.get_by_role("button", name="Upload and check").click()
    page.locator("#preview-summary").wait_for()
    summary = page.locator("#preview-summary").inner_text()
    assert summary.startswith("1 of 25 rows has a problem (row 23): it is not issued, the "
                              "other rows are."), summary
    assert page.locator("#preview-row-23 .row-check").inner_text() == \
        "Problem Member is required."
    assert page.locator("#preview-row-10").count() == 1  # the first ten rows, then row 23
    assert page.locator("#preview-row-11").count() == 0
    screenshot(page, "dashboard-import-preview-row-23")
    assert (found := serious_violations(page)) == [], json.dumps(found)


def test_invite_someone_and_accept_the_link(page_for: Any, live_server: LiveServer) -> None:
    owner, _key = _owner(page_for, live_server)
    owner.goto(f"{live_server.url}/dashboard/test/members")
    owner.fill("#f-email", "door@edges.test")
    owner.select_option("#f-role", "scanner")
    owner.get_by_role("button", name="Create invitation").click()
    link = owner.locator("#invitation-link")
    link.wait_for()
    url = link.input_value()
    assert re.fullmatch(r"https?://[^/]+/dashboard/invitations/[\w-]{40,}", url), url
    assert owner.locator("#open-invitations", has_text="door@edges.test").is_visible()
    screenshot(owner, "dashboard-members-invited")
    assert serious_violations(owner) == []
    path = "/dashboard/invitations/" + url.rsplit("/", 1)[1]
    phone = page_for("iphone")
    phone.goto(f"{live_server.url}{path}")
    assert phone.locator("h1").inner_text() == "Join Edges Co"
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390
    screenshot(phone, "dashboard-invitation-accept")
    assert serious_violations(phone) == []
    phone.fill("#password", PASSWORD)
    phone.get_by_role("button", name="Accept and join").click()
    phone.wait_for_url(re.compile(r".*/dashboard/test/scan$"))
    screenshot(phone, "dashboard-invitation-accepted-scanner")
    phone.goto(f"{live_server.url}{path}")  # the link worked once
    assert phone.locator("#invitation-gone").is_visible()
    screenshot(phone, "dashboard-invitation-gone")
    assert serious_violations(phone) == []
