"""Every dashboard form that creates something runs once per drawn form, whatever the number
of posts: a form is drawn once, then posted four times at the same moment (a double click, a
retry) to two gunicorn workers; one thing is made, and every post gets the same answer."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.support.gunicorn import serving
from tests.support.members import add_member
from tests.support.receiver import Receiver
from tests.support.smtp import Mailbox

POSTS = 4


class _Forms(HTMLParser):
    """Each form of a page: its action (none for a GET form) and the fields a browser would
    send."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: unescape(v or "") for k, v in attrs}
        if tag == "form":
            self.forms.append((a.get("action", "") if a.get("method") == "post" else "", []))
        elif not self.forms:
            return
        elif tag == "input" and a.get("name") and a.get("type") != "file":
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.forms[-1][1].append((a["name"], a.get("value", "on" if a.get("type") in (
                    "checkbox", "radio") else "")))
        elif tag == "select":
            self._select, self._options = a.get("name"), []
        elif tag == "option" and self._select:
            self._options.append((a.get("value", ""), "selected" in a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select and self._options:
            chosen = [v for v, selected in self._options if selected] or [self._options[0][0]]
            self.forms[-1][1].append((self._select, chosen[0]))
            self._select = None


@dataclass
class Browser:
    """A signed-in staff member talking to the server over HTTP (its session cookie is
    `Secure`, so it is sent by hand over this plain HTTP)."""

    base: str
    cookie: str = ""

    def client(self, **options: Any) -> httpx.Client:
        return httpx.Client(base_url=self.base, headers={"Cookie": self.cookie}, **options)

    def keep(self, response: httpx.Response) -> None:
        found = re.match(r"(session=[^;]+)", response.headers.get("set-cookie", ""))
        if found:
            self.cookie = found.group(1)

    def get(self, path: str) -> str:
        with self.client() as client:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            self.keep(response)
            return response.text

    def form(self, path: str, action: str) -> list[tuple[str, str]]:
        parser = _Forms()
        parser.feed(self.get(path))
        found = [fields for form_action, fields in parser.forms if form_action == action]
        assert found, f"no form posting to {action} on {path}"
        return found[0]

    def post_at_once(self, action: str, fields: list[tuple[str, str]],
                     files: dict[str, Any] | None = None) -> list[httpx.Response]:
        def post(_: int) -> httpx.Response:
            with self.client(timeout=60) as client:
                return client.post(action, data=_as_data(fields), files=files)

        with ThreadPoolExecutor(POSTS) as pool:
            return list(pool.map(post, range(POSTS)))


def _as_data(fields: list[tuple[str, str]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    return {name: values[0] if len(values) == 1 else values for name, values in data.items()}


def _changed(fields: list[tuple[str, str]], **values: str) -> list[tuple[str, str]]:
    out = [(name, value) for name, value in fields if name not in values]
    return out + list(values.items())


@pytest.fixture
def mailbox_() -> Iterator[Mailbox]:
    box = Mailbox().start()
    yield box
    box.stop()


@pytest.fixture
def server(app: Flask, database_url: str, tmp_path: Path, org: dict[str, Any],
           mailbox_: Mailbox) -> Iterator[Browser]:
    with serving(app, database_url, tmp_path, workers=2, env={
            "SMTP_URL": mailbox_.url(), "EMAIL_FROM": "passes@acme.test",
            "WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "1"}) as served:
        browser = Browser(f"http://127.0.0.1:{served.port}")
        page = browser.get("/dashboard/login")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        with browser.client() as client:
            signed_in = client.post("/dashboard/login", data={
                "email": org["email"], "password": org["password"], "csrf_token": token})
            assert signed_in.status_code == 303, signed_in.text
            browser.keep(signed_in)
        yield browser


def _same_answers(responses: list[httpx.Response]) -> bool:
    """Whether every post got the same success."""
    kept = {(r.status_code, r.headers.get("location"), r.headers.get("hx-redirect"), r.text)
            for r in responses}
    return len(kept) == 1 and responses[0].status_code < 400


def _rows(app: Flask, model: Any, org: dict[str, Any]) -> int:
    """How many rows of `model` the organization has."""
    from sqlalchemy import func, select

    from webapp.extensions import db

    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(model).where(
            model.organization_id == org["id"])) or 0)


def test_every_creating_form_runs_once(app: Flask, org: dict[str, Any], server: Browser,
                                      api: Api, live_api: Api, png: Any, receiver: Receiver,
                                      mailbox_: Mailbox) -> None:
    from webapp.models import ApiKey, Invitation

    template = api.post("/v1/templates", template_body(
        redemption={"mode": "single"})).get_json()
    tid = template["id"]
    add_member(app, org["id"], "ada@acme.test")  # in test, passes are emailed to members
    item = api.post("/v1/passes", {"templateId": tid, "holderEmail": "ada@acme.test",
                                   "fieldValues": {"member": "Ada"}}).get_json()
    pid = item["id"]
    cases: list[tuple[str, str, str, dict[str, str], dict[str, Any] | None,
                      Callable[[], int]]] = [
        # (what, page, action, changes, files, how many there are)
        ("new pass", f"/dashboard/test/passes/new?template={tid}", "/dashboard/test/passes",
         {"fv-member": "Grace"}, None,
         lambda: len(api.get("/v1/passes").get_json()["data"])),
        ("pass edit", f"/dashboard/test/passes/{pid}", f"/dashboard/test/passes/{pid}/edit",
         {"fv-member": "Ada L."}, None,
         lambda: len(api.get(f"/v1/passes/{pid}/updates").get_json()["data"])),
        ("download link", f"/dashboard/test/passes/{pid}",
         f"/dashboard/test/passes/{pid}/download-links", {}, None,
         lambda: len(api.get(f"/v1/passes/{pid}/download-links").get_json()["data"])),
        ("email", f"/dashboard/test/passes/{pid}", f"/dashboard/test/passes/{pid}/email",
         {}, None, lambda: len(api.get(f"/v1/passes/{pid}/emails").get_json()["data"])),
        ("new template", "/dashboard/test/templates/new", "/dashboard/test/templates/new",
         {"name": "Once", "type": "generic"}, None,
         lambda: len(api.get("/v1/templates").get_json()["data"])),
        ("design save", f"/dashboard/test/templates/{tid}", f"/dashboard/test/templates/{tid}",
         {"description": "Saved once"}, None,
         lambda: api.get(f"/v1/templates/{tid}").get_json()["revision"]),
        ("duplicate", f"/dashboard/test/templates/{tid}",
         f"/dashboard/test/templates/{tid}/duplicate", {}, None,
         lambda: len(api.get("/v1/templates").get_json()["data"])),
        ("restore", f"/dashboard/test/templates/{tid}/revisions",
         f"/dashboard/test/templates/{tid}/revisions/1/restore", {}, None,
         lambda: api.get(f"/v1/templates/{tid}").get_json()["revision"]),
        ("API key", "/dashboard/test/keys", "/dashboard/test/keys", {"name": "Once"}, None,
         lambda: _rows(app, ApiKey, org)),
        ("member", "/dashboard/test/members", "/dashboard/test/members",
         {"email": "new@once.test", "role": "member"}, None,
         lambda: _rows(app, Invitation, org)),
        ("webhook endpoint", "/dashboard/test/webhooks", "/dashboard/test/webhooks",
         {"url": receiver.url}, None,
         lambda: len(api.get("/v1/webhook-endpoints").get_json()["data"])),
    ]
    _each_runs_once(server, cases)


def _each_runs_once(server: Browser, cases: list[Any]) -> None:
    """Post each case's form at once; every case that made more than one thing, or answered
    differently, is named."""
    wrong = []
    for what, page, action, changes, files, count in cases:
        before = count() if count else 0
        fields = _changed(server.form(page, action), **changes)
        answers = server.post_at_once(action, fields, files)
        after = count() if count else 1  # no count: the same answer (one new secret) says it
        if not _same_answers(answers) or after != before + 1:
            wrong.append((what, before, after, [a.status_code for a in answers]))
    assert wrong == []


def test_every_creating_form_of_jobs_webhooks_and_credentials_runs_once(
        app: Flask, org: dict[str, Any], server: Browser, api: Api, receiver: Receiver,
        pki: Any, account: dict[str, Any]) -> None:
    from webapp.models import AppleCertificate, BulkJob, GoogleIssuer

    app.config["WEBHOOKS_ALLOW_PRIVATE_NETWORKS"] = True  # the receiver is on loopback
    template = api.post("/v1/templates", template_body()).get_json()
    tid = template["id"]
    for name in ("Ada", "Grace"):
        api.post("/v1/passes", {"templateId": tid, "fieldValues": {"member": name}})
    changed = api.patch(f"/v1/templates/{tid}", {"expectedRevision": 1, "definition": {
        **template["definition"], "description": "Second design"}})
    assert changed.status_code == 200, changed.get_json()
    endpoint = api.post("/v1/webhook-endpoints", {"url": receiver.url}).get_json()
    eid = endpoint["id"]
    csv = b"member,level\nAda,Gold\nGrace,Silver\n"

    def jobs() -> int:
        return _rows(app, BulkJob, org)

    def deliveries() -> int:
        listed = api.get(f"/v1/webhook-endpoints/{eid}/deliveries?limit=100").get_json()
        return sum(d["eventType"] == "webhook_endpoint.test" for d in listed["data"])

    _each_runs_once(server, [
        ("upgrade", f"/dashboard/test/templates/{tid}/upgrade",
         f"/dashboard/test/templates/{tid}/upgrade", {}, None, jobs),
        ("bulk change", f"/dashboard/test/templates/{tid}/change",
         f"/dashboard/test/templates/{tid}/change", {"fv-level": "Bronze"}, None, jobs),
        ("test event", f"/dashboard/test/webhooks/{eid}",
         f"/dashboard/test/webhooks/{eid}/test", {}, None, deliveries),
        ("secret rotation", f"/dashboard/test/webhooks/{eid}",
         f"/dashboard/test/webhooks/{eid}/rotate", {}, None, None),
        ("Apple certificate", "/dashboard/live/certificates",
         "/dashboard/live/certificates/apple", {"password": "secret"},
         {"p12": ("cert.p12", pki.p12, "application/x-pkcs12")},
         lambda: _rows(app, AppleCertificate, org)),
        ("Google issuer", "/dashboard/live/certificates", "/dashboard/live/certificates/google",
         {"issuer_id": "3388000000022224444", "service_account_text": json.dumps(account)},
         None, lambda: _rows(app, GoogleIssuer, org)),
    ])
    # The CSV import: the upload, then the run of the mapped columns.
    upload = f"/dashboard/test/templates/{tid}/import"
    fields = server.form(upload, upload)
    answers = server.post_at_once(upload, fields, {"file": ("m.csv", csv, "text/csv")})
    assert _same_answers(answers)
    mapping = answers[0].headers["location"]
    delivery = api.get(f"/v1/webhook-endpoints/{eid}/deliveries?limit=100").get_json()[
        "data"][-1]["id"]
    resend = f"/dashboard/test/webhooks/{eid}/deliveries/{delivery}/resend"
    _each_runs_once(server, [("resend", f"/dashboard/test/webhooks/{eid}", resend, {}, None,
                              None)])
    _each_runs_once(server, [("CSV import", mapping, mapping.replace("/preview", "") + "/run"
                              if "/preview" in mapping else mapping + "/run", {}, None,
                              jobs)])
