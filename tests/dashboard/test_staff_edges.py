"""Small things staff meet: the skip link of every dashboard page."""

from __future__ import annotations

import re

import pytest

from tests.dashboard.conftest import Dash, text


@pytest.mark.parametrize("path", ["/dashboard/test/", "/dashboard/test/passes",
                                  "/dashboard/live/templates", "/dashboard/test/members"])
def test_every_page_starts_with_a_skip_link_to_its_content(dash: Dash, path: str) -> None:
    page = text(dash.get(path))
    body = page.split("<body", 1)[1]
    first_link = re.search(r"<a [^>]*>[^<]*</a>", body).group(0)
    assert first_link == '<a class="skip-link" href="#main">Skip to content</a>'
    assert '<main id="main" tabindex="-1">' in page
