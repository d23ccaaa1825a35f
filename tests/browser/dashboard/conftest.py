"""Browser fixtures for the dashboard journeys: the shared live server and Chromium, and a
signed-in organization owner."""

from __future__ import annotations

from typing import Any

import pytest

from tests.apple.conftest import fake_apns, fake_apns_server  # noqa: F401  (the fake APNs)
from tests.support.browser import live_server, screenshot  # noqa: F401

EMAIL, PASSWORD = "owner@journey.test", "journey password 1"


@pytest.fixture
def owner(live_server: Any) -> dict[str, Any]:  # noqa: F811
    """An organization whose owner can sign in."""
    from webapp.services.accounts import organizations

    with live_server.app.app_context():
        created = organizations.create("Journey Events", EMAIL, PASSWORD)
    return {"email": EMAIL, "password": PASSWORD, "id": created.organization.id}


def organization_key(server: Any, name: str, email: str) -> str:
    """A new organization whose owner signs in as `email` with PASSWORD; its test API key."""
    from webapp.services.accounts import organizations

    with server.app.app_context():
        return str(organizations.create(name, email, PASSWORD).keys["test"])


def sign_in(page: Any, base: str, email: str = EMAIL, password: str = PASSWORD,
            lands_on: str = "/dashboard/test/") -> None:
    """Sign in on the login page and wait for the page it leads to (`lands_on`)."""
    page.goto(f"{base}/dashboard/login")
    page.fill("#email", email)
    page.fill("#password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}{lands_on}")
