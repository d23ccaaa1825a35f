"""axe-core in Debian's Chromium: no serious or critical violation on the dashboard's pages
(login, passes, a pass, the designer, webhooks, its 404s) and on the holder pages (a pass,
voided, an expired link, an unknown pass); and the designer's warning of colours that are hard
to read. Screenshots in tests/browser/screenshots/a11y-*.png.

axe is vendored (tests/browser/vendor/, MPL-2.0, from the npm package axe-core 4.14.1), so
no test run needs npm. `label-content-name-mismatch` (WCAG 2.5.3, label in name) is one of
axe's experimental rules, off by default: it is turned on here.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.browser.dashboard.conftest import organization_key, sign_in
from tests.browser.holder.conftest import Issuer
from tests.browser.holder.test_holder_pages import membership
from tests.support.browser import SCREENSHOTS, LiveServer, screenshot
from webapp import clock

AXE = Path(__file__).resolve().parent / "vendor" / "axe-4.14.1.min.js"
EMAIL = "owner@a11y.test"
RUN_AXE = """async (context) => {
  const results = await axe.run(context || document, {
    rules: {"label-content-name-mismatch": {enabled: true}},
    resultTypes: ["violations"]});
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary)}));
}"""


def serious_violations(page: Any, within: str | None = None) -> list[dict[str, Any]]:
    """axe's serious and critical violations on the page as it is now (or on the elements
    that the CSS selector `within` picks)."""
    if not AXE.exists():  # committed with the tests: missing is a broken checkout, not a skip
        pytest.fail(f"{AXE} is missing (see tests/browser/vendor/README.md)")
    # `evaluate` runs the script through the DevTools protocol, which the page's CSP
    # (script-src 'self', no inline script) does not govern; a <script> tag would be refused.
    page.evaluate(AXE.read_text())
    return list(page.evaluate(RUN_AXE, within))


def _report(found: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for where, violations in found.items():
        for v in violations:
            lines.append(f"{where}: {v['id']} ({v['impact']}) {v['help']}")
            lines.extend(f"    {node}" for node in v["nodes"])
    return "\n".join(lines)


@pytest.fixture
def issuer(live_server: LiveServer) -> Issuer:
    """The organization whose owner signs in as EMAIL, issuing through its test key."""
    return Issuer(live_server, organization_key(live_server, "Acme Gym", EMAIL))


def _issue(issuer: Issuer) -> dict[str, Any]:
    return issuer.issue(membership(issuer), holderName="Ada Lovelace",
                        fieldValues={"member": "Ada Lovelace", "since": "2024-03-14",
                                     "points": 12840})


@pytest.mark.parametrize("device", ["desktop", "iphone"])
def test_dashboard_pages(page_for: Any, live_server: LiveServer, issuer: Issuer,
                         device: str) -> None:
    item = _issue(issuer)
    base = f"{live_server.url}/dashboard/test"
    page = page_for(device)
    found: dict[str, list[dict[str, Any]]] = {}

    def check(name: str, url: str | None = None, status: int = 200) -> None:
        if url is not None:
            assert page.goto(url).status == status, url
        page.wait_for_load_state("networkidle")
        found[name] = serious_violations(page)
        screenshot(page, f"a11y-{name}-{device}")

    check("login", f"{live_server.url}/dashboard/login")
    check("not-found-signed-out", f"{live_server.url}/dashboard/no-such-page", 404)
    sign_in(page, live_server.url, EMAIL)
    check("passes")
    check("pass", f"{base}/passes/{item['id']}")
    check("designer", f"{base}/templates/{item['templateId']}")
    page.goto(f"{base}/templates/new")  # the starter design of a template made here
    page.fill("#f-name", "Club card")
    page.click("text=Create and design")
    page.wait_for_selector("#design-form")
    check("designer-starter")
    check("webhooks", f"{base}/webhooks")
    check("templates", f"{base}/templates")
    check("issue-form", f"{base}/passes/new?template={item['templateId']}")
    check("keys", f"{base}/keys")
    check("change-passes", f"{base}/templates/{item['templateId']}/change")
    check("jobs", f"{base}/jobs")
    check("overview", f"{base}/")
    check("not-found", f"{base}/no-such-page", 404)
    assert not any(found.values()), "\n" + _report(found)


@pytest.mark.parametrize(("device", "scheme"), [("android", "light"), ("desktop", "light"),
                                               ("iphone", "dark")])
def test_holder_pages(page_for: Any, live_server: LiveServer, issuer: Issuer, device: str,
                      scheme: str) -> None:
    active, voided = _issue(issuer), _issue(issuer)
    plain = issuer.issue()  # no images, no label colour of its own
    assert issuer.delete(f"/v1/passes/{voided['id']}") == 200
    page = page_for(device, color_scheme=scheme)
    found: dict[str, list[dict[str, Any]]] = {}

    def check(name: str, path: str, status: int) -> None:
        assert page.goto(f"{live_server.url}{path}").status == status, path
        found[name] = serious_violations(page)
        screenshot(page, f"a11y-holder-{name}-{device}-{scheme}")

    check("active", f"/p/{active['shortId']}", 200)
    check("link", issuer.link(active), 200)
    check("plain", f"/p/{plain['shortId']}", 200)
    check("voided", f"/p/{voided['shortId']}", 410)
    check("unknown", "/p/NOSUCHPASS", 404)
    start = clock.now()
    link = issuer.link(active, 60)
    clock.set_now(lambda: start + timedelta(seconds=61))
    try:
        check("expired", link, 410)
    finally:
        clock.set_now(None)
    assert not any(found.values()), "\n" + _report(found)


def test_designer_warns_of_colours_hard_to_read(page_for: Any, live_server: LiveServer,
                                                issuer: Issuer) -> None:
    """The warning follows the colour input as it changes, and saving still works."""
    template_id = _issue(issuer)["templateId"]  # text #f1faee on #1d3557: 11.56:1
    page = page_for("desktop")
    sign_in(page, live_server.url, EMAIL)
    page.goto(f"{live_server.url}/dashboard/test/templates/{template_id}")
    warnings = page.locator("#contrast-warnings")
    assert warnings.inner_text() == ""
    page.fill("#f-color-foreground", "#8093b0")
    warnings.locator("#warn-color-foreground").wait_for()
    assert warnings.inner_text() == (
        "The text colour on the background has a contrast of 3.95:1; WCAG AA asks for at "
        "least 4.5:1, so some people will not be able to read it.")
    page.click("#save-design")
    page.locator(".saved-note", has_text="Saved as revision 2.").wait_for()
    assert page.locator("#warn-color-foreground").is_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("section.card", has=page.locator("#color-inputs")).screenshot(
        path=str(SCREENSHOTS / "a11y-designer-contrast-warning.png"))
    assert serious_violations(page, "#contrast-warnings") == []  # the warning is readable
    page.fill("#f-color-foreground", "#ffffff")
    page.locator("#warn-color-foreground").wait_for(state="detached")
    assert warnings.inner_text() == ""
