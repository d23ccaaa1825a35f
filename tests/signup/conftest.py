"""Sign-up page fixtures: a template that takes sign-ups, and a visitor with a browser's
session (the form's CSRF token comes from the page)."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.factories import template_body
from tests.conftest import Api

ENROLLMENT: dict[str, Any] = {
    "enabled": True,
    "fields": [{"key": "holderName", "required": True},
               {"key": "holderEmail", "required": True},
               {"key": "member", "required": True},
               {"key": "level", "required": False}],
    "consent": "I agree to the club's rules.",
}
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def signup_template(api: Api, enrollment: dict[str, Any] | None = None,
                    **changes: Any) -> dict[str, Any]:
    """A generic template (member required, level optional) that opens sign-ups."""
    body = template_body(enrollment=copy.deepcopy(enrollment or ENROLLMENT), **changes)
    response = api.post("/v1/templates", body)
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def path_of(template: dict[str, Any]) -> str:
    """The sign-up page's path (its URL without BASE_URL)."""
    return "/join/" + template["enrollmentUrl"].rsplit("/join/", 1)[1]


class Visitor:
    """A person's browser on a sign-up page: GET for the form (and its token), then POST."""

    def __init__(self, client: FlaskClient, path: str, lang: str = "en"):
        self.client, self.path, self.lang = client, path, lang

    def open(self) -> Any:
        return self.client.get(self.path, headers={"Accept-Language": self.lang})

    def token(self) -> str:
        page = self.open()
        found = _TOKEN.search(page.get_data(as_text=True))
        assert found, page.get_data(as_text=True)
        return found.group(1)

    def submit(self, token: str | None = None, **form: str) -> Any:
        data = {"holderName": "Ada Lovelace", "holderEmail": "ada@example.com",
                "member": "Ada", "consent": "yes", **form}
        if token is None:
            token = self.token()
        if token:
            data["csrf_token"] = token
        return self.client.post(self.path, data={k: v for k, v in data.items() if v is not None},
                                headers={"Accept-Language": self.lang})


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    return signup_template(api)


@pytest.fixture
def visitor(app: Flask, template: dict[str, Any]) -> Visitor:
    return Visitor(app.test_client(), path_of(template))
