"""Dashboard fixtures: a signed-in browser-like client that sends the CSRF token."""

from __future__ import annotations

import re
import uuid
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_token(client: FlaskClient, path: str = "/dashboard/login") -> str:
    """The CSRF token of the client's session, read from a page as a browser would."""
    html = client.get(path).get_data(as_text=True)
    match = _TOKEN.search(html)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


class Dash:
    """A test client signed in to the dashboard; `post` adds the CSRF token."""

    def __init__(self, client: FlaskClient, token: str):
        self.client, self.token = client, token

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, **kw)

    def post(self, path: str, data: dict[str, Any] | MultiDict[str, Any] | None = None, *,
             htmx: bool = False, csrf: bool = True, header: bool = False, **kw: Any) -> Any:
        data = data.copy() if isinstance(data, MultiDict) else dict(data or {})
        data.setdefault("form_token", uuid.uuid4().hex)  # each post a form of its own
        headers = dict(kw.pop("headers", {}))
        if csrf and header:
            headers["X-CSRFToken"] = self.token
        elif csrf:
            data.setdefault("csrf_token", self.token)
        if htmx:
            headers["HX-Request"] = "true"
        return self.client.post(path, data=data, headers=headers, **kw)


def sign_in(client: FlaskClient, email: str, password: str) -> Dash:
    token = csrf_token(client)
    response = client.post("/dashboard/login", data={"email": email, "password": password,
                                                     "csrf_token": token})
    assert response.status_code == 303, response.get_data(as_text=True)
    return Dash(client, csrf_token(client, "/dashboard/test/keys"))


@pytest.fixture
def dash(client: FlaskClient, org: dict[str, Any]) -> Dash:
    """The organization's owner, signed in."""
    return sign_in(client, org["email"], org["password"])


@pytest.fixture
def other_dash(app: Flask, other_org: dict[str, Any]) -> Dash:
    """The other organization's owner, signed in on a second client."""
    return sign_in(app.test_client(), other_org["email"], other_org["password"])


def text(response: Any) -> str:
    return response.get_data(as_text=True)


class _FormReader(HTMLParser):
    """What a browser would submit for one form (inputs, checked boxes, selected options)."""

    def __init__(self, form_id: str):
        super().__init__()
        self.form_id, self.inside, self.values = form_id, False, []
        self._select: str | None = None
        self._first_option: str | None = None
        self._chosen = False
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        if tag == "input" and a.get("name") and a.get("type") != "file":
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.values.append((a["name"], a.get("value") or "on"))
            else:
                self.values.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select, self._first_option, self._chosen = a.get("name"), None, False
        elif tag == "option" and self._select:
            if self._first_option is None:
                self._first_option = a.get("value", "")
            if "selected" in a:
                self.values.append((self._select, a.get("value", "")))
                self._chosen = True
        elif tag == "textarea":
            self._textarea = a.get("name")
            self.values.append((self._textarea or "", ""))

    def handle_data(self, data: str) -> None:
        if self._textarea and self.values:
            name, value = self.values[-1]
            self.values[-1] = (name, value + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "select" and self._select:
            if not self._chosen and self._first_option is not None:
                self.values.append((self._select, self._first_option))
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def form_data(html: str, form_id: str) -> dict[str, str]:
    """The fields a browser would submit for the form with this id (last value wins)."""
    reader = _FormReader(form_id)
    reader.feed(html)
    return {name: unescape(value) for name, value in reader.values}


def form_fields(html: str, form_id: str) -> MultiDict[str, str]:
    """Every field a browser would submit for the form, repeated names included."""
    reader = _FormReader(form_id)
    reader.feed(html)
    return MultiDict([(name, unescape(value)) for name, value in reader.values])


@pytest.fixture(scope="module")
def pki() -> Any:
    """An Apple PKI of test certificates (tests/support/test_pki.py)."""
    from tests.support import pki as test_pki

    return test_pki.make()


@pytest.fixture(scope="module")
def account() -> dict[str, Any]:
    """A Google service account made for the tests."""
    from webapp.wallets.google import service_account

    return service_account.make_demo("https://oauth2.googleapis.com/token")
