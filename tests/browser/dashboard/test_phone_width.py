"""No sideways scrolling at 390 px (issue 31: the designer overflowed a phone by 35 px): the
template designer (generic and event ticket, check-in on), the pass page and the scanner, in
Chromium at 390 px wide, as a phone (mobile emulation) and as a narrow window. Screenshots in
tests/browser/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.dashboard.conftest import sign_in
from tests.browser.test_accessibility import serious_violations
from tests.support.browser import screenshot

WIDTH = 390
# The page's own scrolling box, and what sticks out of the viewport when it is too wide.
MEASURE = """() => {
  const root = document.scrollingElement;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    const fixed = getComputedStyle(el).position === 'fixed';
    if (box.width && box.right > root.clientWidth + 0.5 && !fixed)
      out.push(`${el.tagName.toLowerCase()}#${el.id}.${[...el.classList].join('.')} `
               + Math.round(box.right));
  }
  return {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, out: out.slice(0, 8)};
}"""


def _fits(page: Any, name: str) -> None:
    measured = page.evaluate(MEASURE)
    screenshot(page, name)
    assert measured["scrollWidth"] <= measured["clientWidth"], measured
    assert measured["clientWidth"] <= WIDTH


def _template(page: Any, base: str, kind: str) -> str:
    page.goto(f"{base}/dashboard/test/templates/new")
    page.fill("#f-name", "A rather long template name for a phone screen")
    page.check(f"input[name=type][value={kind}]")
    page.click("text=Create and design")
    page.wait_for_selector("#design-form")
    return str(page.url.rsplit("/", 1)[1])


def _pass(server: Any, organization_id: str, template_id: str) -> str:
    from webapp.services.context import Context
    from webapp.services.passes import issuing

    with server.app.app_context():
        item = issuing.issue(Context(organization_id, "test", "dashboard"),
                             issuing.IssueRequest(
                                 template_id=template_id, field_values={"seat": "Row 7, seat 12"},
                                 holder_name="Maximiliane Mustermann-Schwarzenberg",
                                 holder_email="maximiliane.mustermann@example.com"))
    return str(item.id)


@pytest.mark.parametrize("device", ["iphone", "narrow"])
def test_no_page_scrolls_sideways_at_390_px(page_for: Any, live_server: Any,
                                            owner: dict[str, Any], device: str) -> None:
    page = page_for("iphone") if device == "iphone" else \
        page_for("desktop", viewport={"width": WIDTH, "height": 844})
    base = live_server.url
    sign_in(page, base)
    for kind in ("generic", "event_ticket"):
        template_id = _template(page, base, kind)
        page.locator("#checkin").scroll_into_view_if_needed()
        page.check("input[name=redemption-mode][value=multiple]")
        _fits(page, f"width-390-{device}-designer-{kind}")
        page.click("#save-design")
        page.locator(".saved-note", has_text="revision 2").wait_for()
        _fits(page, f"width-390-{device}-designer-{kind}-saved")
        for name in ("Add field to", "Add location"):  # one more row in each list
            for i in range(page.locator(f"button[aria-label^='{name}']").count()):
                with page.expect_response(lambda r: r.request.method == "POST"):
                    page.locator(f"button[aria-label^='{name}']").nth(i).click()
        _fits(page, f"width-390-{device}-designer-{kind}-more-rows")
    pass_id = _pass(live_server, owner["id"], template_id)
    page.goto(f"{base}/dashboard/test/passes/{pass_id}")
    _fits(page, f"width-390-{device}-pass")
    page.goto(f"{base}/dashboard/test/scan")
    page.wait_for_selector("#scan-env")
    _fits(page, f"width-390-{device}-scanner")
    assert serious_violations(page) == []
    # the measure sees an overflow like the one reported (35 px)
    page.evaluate("document.querySelector('main').append(Object.assign("
                  "document.createElement('div'), {style: 'width: 425px; height: 1px'}))")
    measured = page.evaluate(MEASURE)
    assert measured["scrollWidth"] - measured["clientWidth"] >= 35, measured
