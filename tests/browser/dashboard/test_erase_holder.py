"""The pass page's "Erase holder data" in Chromium (issue 33): a wrong word erases nothing,
ERASE erases and the page shows the pass without the holder. Screenshots in
tests/browser/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.factories import template_body
from tests.browser.dashboard.conftest import organization_key, sign_in
from tests.support.browser import WATCH_REFUSALS, LiveServer, api, no_refusals, screenshot, serving

EMAIL = "staff@erase.test"
NAME = "Zephyrine Quillfeather"


@pytest.fixture
def server(database: dict[str, Any], database_url: str, tmp_path: Path
           ) -> Iterator[LiveServer]:
    with serving(database_url, tmp_path, {}) as live:
        yield live


def test_erase_holder_data_from_the_pass_page(page_for: Any, server: LiveServer) -> None:
    key = organization_key(server, "Erase Co", EMAIL)
    template = api(server, key, "POST", "templates", template_body(name="Gym membership"))
    issued = api(server, key, "POST", "passes", {"templateId": template["id"],
                                                 "holderName": NAME,
                                                 "fieldValues": {"member": NAME}})
    page = page_for("desktop")
    page.add_init_script(WATCH_REFUSALS)
    sign_in(page, server.url, EMAIL)
    page.goto(f"{server.url}/dashboard/test/passes/{issued['id']}")
    card = page.locator("#erase-holder")
    card.locator("#f-erase-confirm").fill("delete")
    card.get_by_role("button", name="Erase holder data").click()
    page.locator("#erase-problem", has_text="type ERASE to confirm").wait_for()
    screenshot(page, "dashboard-pass-erase-refused")
    assert NAME in page.locator("h1").inner_text()
    page.locator("#f-erase-confirm").fill("ERASE")
    page.get_by_role("button", name="Erase holder data").click()
    page.locator("#erase-holder", has_text="The holder's data was erased").wait_for()
    assert NAME not in page.content()
    assert page.locator("h1").inner_text() == "Holder data erased"
    assert "Voided" in page.locator(".pagehead").inner_text()
    no_refusals(page)
    screenshot(page, "dashboard-pass-erased")
    shown = api(server, key, "GET", f"passes/{issued['id']}")
    assert shown["holderName"] is None and shown["erasedAt"] is not None
