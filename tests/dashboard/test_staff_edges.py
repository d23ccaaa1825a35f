"""Small things staff meet: the skip link of every dashboard page; what test passes of the
generated demo identities can and cannot do, said where staff look."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.dashboard.conftest import Dash, text


@pytest.mark.parametrize("path", ["/dashboard/test/", "/dashboard/test/passes",
                                  "/dashboard/live/templates", "/dashboard/test/members"])
def test_every_page_starts_with_a_skip_link_to_its_content(dash: Dash, path: str) -> None:
    page = text(dash.get(path))
    body = page.split("<body", 1)[1]
    first_link = re.search(r"<a [^>]*>[^<]*</a>", body).group(0)
    assert first_link == '<a class="skip-link" href="#main">Skip to content</a>'
    assert '<main id="main" tabindex="-1">' in page


def _google_pass(api: Api) -> dict[str, Any]:
    template = api.post("/v1/templates", template_body(
        platforms={"apple": False, "google": True})).get_json()
    return dict(api.post("/v1/passes", {"templateId": template["id"],
                                        "fieldValues": {"member": "Ada"}}).get_json())


def test_a_test_pass_of_the_generated_demo_issuer_says_so_not_failed(dash: Dash,
                                                                      api: Api) -> None:
    item = _google_pass(api)
    page = text(dash.get(f"/dashboard/test/passes/{item['id']}"))
    google = page.split('id="wallet-google"', 1)[1].split('id="wallet-', 1)[0]
    assert '<span class="badge gray">Demo issuer</span>' in google
    assert "Android holders cannot add this test pass" in google
    assert "DEMO_GOOGLE_SERVICE_ACCOUNT" in google
    for red in ("field-error", "badge red", "badge amber", "failed", "Not available"):
        assert red not in google, red
    overview = text(dash.get("/dashboard/test/"))
    assert 'id="demo-identities"' in overview and "DEMO_APPLE_P12" in overview
    assert 'id="demo-identities"' not in text(dash.get("/dashboard/live/"))


def test_with_a_real_demo_issuer_the_pass_is_ready(dash: Dash, api: Api, app: Flask) -> None:
    app.config["GOOGLE_TOKEN_URI"] = "http://127.0.0.1:9/token"  # a private token endpoint
    item = _google_pass(api)
    page = text(dash.get(f"/dashboard/test/passes/{item['id']}"))
    google = page.split('id="wallet-google"', 1)[1].split('id="wallet-', 1)[0]
    assert "Demo issuer" not in google
