"""Passes imported from a CSV file, clicked through in Chromium: upload, fix a column's
match, see each row's problem, run, watch the bar move to done, download the results; and
"update all passes to the latest design". Screenshots at desktop and phone widths in
tests/browser/screenshots/."""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.factories import member_import_definition
from tests.browser.dashboard.conftest import organization_key, sign_in
from tests.support.browser import WATCH_REFUSALS, LiveServer, api, no_refusals, screenshot, serving

# Every value the job's progress bar shows, as the polled partial replaces it.
_FOLLOW_BAR = """window.__bar = [];
const record = () => { const b = document.querySelector('#job-bar');
  if (b) window.__bar.push(`${b.value}/${b.max}`); };
record();
new MutationObserver(record).observe(document.body, {subtree: true, childList: true});"""


class HeldJobs:
    """The in-process bulk queue, except that its jobs wait until `release()`: the job page is
    seen at 0 first, whatever the machine's speed. Other tasks run as usual."""

    def __init__(self, executor: Any):
        self.executor, self.held, self.released = executor, [], False

    def submit(self, fn: Any, *args: Any) -> Any:
        if not self.released and args[1] == "run_bulk_job":
            self.held.append((fn, args))
            return None
        return self.executor.submit(fn, *args)

    def release(self) -> None:
        self.released = True
        for fn, args in self.held:
            self.executor.submit(fn, *args)

    def shutdown(self, wait: bool = True) -> None:
        self.executor.shutdown(wait=wait)


@pytest.fixture
def server(database: dict[str, Any], database_url: str, tmp_path: Path
           ) -> Iterator[LiveServer]:
    with serving(database_url, tmp_path) as live:
        from jobs import queue

        executors = live.app.extensions[queue.EXECUTORS]
        executors[queue.BULK_QUEUE] = HeldJobs(executors[queue.BULK_QUEUE])
        yield live


@pytest.fixture
def email() -> str:
    """The owner's address: one per test (the PostgreSQL lane keeps the database)."""
    return f"staff-{uuid.uuid4().hex[:8]}@import.test"


@pytest.fixture
def key(server: LiveServer, email: str) -> str:
    return organization_key(server, "Import Co", email)


def _csv(rows: int) -> bytes:
    """A member list as Excel writes it in Europe: BOM, semicolons, CRLF; row 2 has no
    member, row 4 no number of points."""
    lines = ["Member;E-mail;Tier;Points"]
    for n in range(1, rows + 1):
        member = "" if n == 2 else f"Member {n}"
        points = "lots" if n == 4 else str(n * 10)
        lines.append(f"{member};m{n}@example.com;{'Gold' if n % 2 else 'Silver'};{points}")
    return b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\r\n"


def _page(page_for: Any, server: LiveServer, email: str, device: str = "desktop") -> Any:
    page = page_for(device, accept_downloads=True)
    page.add_init_script(WATCH_REFUSALS)
    sign_in(page, server.url, email)
    return page


def _upload(page: Any, server: LiveServer, template_id: str, data: bytes) -> None:
    page.goto(f"{server.url}/dashboard/test/templates/{template_id}")
    page.click("#import-csv")
    page.locator("#f-file").set_input_files(files=[{"name": "members.csv",
                                                    "mimeType": "text/csv", "buffer": data}])
    page.get_by_role("button", name="Upload and check").click()
    page.wait_for_url(f"{server.url}/dashboard/test/templates/{template_id}/import/*")


def test_import_a_csv_watch_it_run_and_download_the_results(
        page_for: Any, server: LiveServer, key: str, email: str) -> None:
    template = api(server, key, "POST", "templates",
                   {"name": "Gym", "type": "generic", "definition": member_import_definition()})
    page = _page(page_for, server, email)
    page.goto(f"{server.url}/dashboard/test/templates/{template['id']}/import")
    page.locator("#f-file").set_input_files(files=[{
        "name": "members.csv", "mimeType": "text/csv",
        "buffer": "Member;Level\nJosé;Gold\n".encode("cp1252")}])
    page.get_by_role("button", name="Upload and check").click()
    assert page.locator("#upload-problem").inner_text().startswith(
        "The file is not UTF-8 text")
    screenshot(page, "dashboard-import-not-utf8")
    _upload(page, server, template["id"], _csv(25))
    # "Tier" is no input's name: Level is not matched until it is chosen
    level = page.locator("#map-fieldValues\\.level")
    assert level.input_value() == ""
    assert page.locator("#import-preview th", has_text="Level").count() == 0
    level.select_option(label="Tier")
    page.locator("#import-preview th", has_text="Level").wait_for()
    assert page.locator("#preview-row-3 td[data-label=Level]").inner_text() == "Gold"
    assert page.locator("#preview-row-1 .row-check").inner_text() == "OK"
    assert page.locator("#preview-row-2 .row-check").inner_text() == \
        "Problem Member is required."
    assert page.locator("#preview-row-4 .row-check").inner_text() == \
        "Problem Points must be a number."
    assert page.locator("#preview-row-10").count() == 1
    assert page.locator("#preview-row-11").count() == 0
    assert page.locator("#preview-summary").inner_text().startswith(
        "2 of 25 rows have problems (rows 2, 4)")
    no_refusals(page)
    screenshot(page, "dashboard-import-preview")
    page.get_by_role("button", name="Issue 25 passes").click()
    page.wait_for_url(f"{server.url}/dashboard/test/jobs/bjob_*")
    assert page.locator("#job-status").inner_text() == "Queued"
    assert page.locator("#job-done").inner_text() == "0 of 25"
    page.evaluate(_FOLLOW_BAR)
    screenshot(page, "dashboard-import-job-queued")
    server.app.extensions["job_executors"]["bulk"].release()
    page.locator("#job-status", has_text="Completed").wait_for(timeout=30000)
    seen = page.evaluate("window.__bar")
    assert seen[0] == "0/25" and seen[-1] == "25/25", seen  # moved, without a reload
    assert page.locator("#job-counts").inner_text() == "23 succeeded 2 failed"
    screenshot(page, "dashboard-import-job-done")
    with page.expect_download() as download:
        page.click("#job-results")
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text("utf-8-sig"))))
    assert rows[0] == ["row", "externalId", "result", "problem", "passId", "shortId",
                       "distributionUrl", "holderName", "holderEmail", "problemCode"]
    assert len(rows) == 26
    assert [r[2] for r in rows[1:]].count("Issued") == 23  # the preview's words
    assert rows[2][2:4] + rows[2][9:] == ["Problem", "Member is required.",
                                          "required_field_missing"]
    assert rows[4][2:4] + rows[4][9:] == ["Problem", "Points must be a number.",
                                          "field_value_invalid"]
    assert rows[1][6] == f"{server.url}/p/{rows[1][5]}"  # the holder's link, not the dashboard
    page.goto(rows[1][6])
    assert "Member 1" in page.locator("main").inner_text()
    no_refusals(page)


def test_update_all_passes_to_the_latest_design(page_for: Any, server: LiveServer,
                                                key: str, email: str) -> None:
    server.app.extensions["job_executors"]["bulk"].release()
    template = api(server, key, "POST", "templates",
                   {"name": "Gym", "type": "generic", "definition": member_import_definition()})
    passes = [api(server, key, "POST", "passes", {"templateId": template["id"],
                                                  "fieldValues": {"member": name}})
              for name in ("Ada", "Bo", "Cy")]
    changed = member_import_definition()
    changed["colors"]["background"] = "#445566"
    api(server, key, "PATCH", f"templates/{template['id']}",
        {"expectedRevision": 1, "definition": changed})
    page = _page(page_for, server, email)
    page.goto(f"{server.url}/dashboard/test/templates/{template['id']}")
    notice = page.locator("#outdated-passes")
    assert notice.inner_text().startswith("3 active passes show an older revision")
    screenshot(page, "dashboard-template-outdated-passes")
    notice.get_by_role("link", name="Update all passes to the latest design").click()
    assert "3 active passes in test show an older revision of Gym" in \
        page.locator("#upgrade").inner_text()
    screenshot(page, "dashboard-upgrade-confirm")
    page.get_by_role("button", name="Update 3 passes").click()
    page.wait_for_url(f"{server.url}/dashboard/test/jobs/bjob_*")
    page.locator("#job-status", has_text="Completed").wait_for(timeout=30000)
    assert page.locator("#job-done").inner_text() == "3 of 3"
    assert [api(server, key, "GET", f"passes/{p['id']}")["templateRevision"]
            for p in passes] == [2, 2, 2]
    page.goto(f"{server.url}/dashboard/test/jobs")
    assert "Latest design" in page.locator("main").inner_text()
    screenshot(page, "dashboard-jobs")
    no_refusals(page)
    # the same pages on a phone
    phone = _page(page_for, server, email, "iphone")
    _upload(phone, server, template["id"], _csv(3))
    phone.locator("#map-fieldValues\\.level").select_option(label="Tier")
    phone.locator("#preview-row-1 td[data-label=Level]").wait_for()
    screenshot(phone, "dashboard-phone-import-preview")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.get_by_role("button", name="Issue 3 passes").click()
    phone.locator("#job-status", has_text="Completed").wait_for(timeout=30000)
    screenshot(phone, "dashboard-phone-import-job-done")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.goto(f"{server.url}/dashboard/test/templates/{template['id']}/upgrade")
    screenshot(phone, "dashboard-phone-upgrade-confirm")
    no_refusals(phone)


def test_change_many_passes_then_void_some(page_for: Any, server: LiveServer, key: str,
                                           email: str) -> None:
    server.app.extensions["job_executors"]["bulk"].release()
    template = api(server, key, "POST", "templates",
                   {"name": "Gym", "type": "generic", "definition": member_import_definition()})
    passes = [api(server, key, "POST", "passes", {
        "templateId": template["id"], "holderName": name,
        "fieldValues": {"member": name, "level": "Silver"}}) for name in ("Ada", "Bo", "Cy")]
    page = _page(page_for, server, email)
    page.goto(f"{server.url}/dashboard/test/templates/{template['id']}")
    page.click("#change-passes-link")
    assert page.locator("#change-count").inner_text() == "3 active passes of Gym in test."
    page.fill("#c-fv-level", "Gold")
    page.get_by_label("Notify holders of changed fields that have a change message").check()
    screenshot(page, "dashboard-change-passes")
    page.get_by_role("button", name="Change 3 passes").click()
    page.wait_for_url(f"{server.url}/dashboard/test/jobs/bjob_*")
    page.locator("#job-status", has_text="Completed").wait_for(timeout=30000)
    assert page.locator("#job-done").inner_text() == "3 of 3"
    assert [api(server, key, "GET", f"passes/{p['id']}")["fieldValues"]["level"]
            for p in passes] == ["Gold"] * 3
    # void the ones a search finds
    page.goto(f"{server.url}/dashboard/test/templates/{template['id']}/change")
    page.fill("#change-q", "cy")
    page.get_by_role("button", name="Find").click()
    assert page.locator("#change-count").inner_text() == \
        "1 active pass of Gym in test contains “cy”."
    assert page.locator("#c-confirm").count() == 0  # one pass: no count to type
    screenshot(page, "dashboard-void-passes")
    page.get_by_role("button", name="Void 1 pass").click()
    page.locator("#job-status", has_text="Completed").wait_for(timeout=30000)
    assert [api(server, key, "GET", f"passes/{p['id']}")["status"] for p in passes] == [
        "active", "active", "voided"]
    no_refusals(page)
    phone = _page(page_for, server, email, "iphone")
    phone.goto(f"{server.url}/dashboard/test/templates/{template['id']}/change")
    screenshot(phone, "dashboard-phone-change-passes")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    no_refusals(phone)
