"""Browser fixtures for the dashboard journeys: the shared live server and Chromium, and a
signed-in organization owner."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.browser import live_server, screenshot  # noqa: F401

EMAIL, PASSWORD = "owner@journey.test", "journey password 1"


@pytest.fixture
def owner(live_server: Any) -> dict[str, Any]:  # noqa: F811
    """An organization whose owner can sign in."""
    from webapp.services.accounts import organizations

    with live_server.app.app_context():
        created = organizations.create("Journey Events", EMAIL, PASSWORD)
    return {"email": EMAIL, "password": PASSWORD, "id": created.organization.id}


def sign_in(page: Any, base: str, email: str = EMAIL, password: str = PASSWORD) -> None:
    page.goto(f"{base}/dashboard/login")
    page.fill("#email", email)
    page.fill("#password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/dashboard/test/passes")
