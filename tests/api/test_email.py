"""Sending passes by email: `POST /v1/passes/<id>/send`, `send: true` on issue, `lastEmail`,
the job that sends (retries, failures, one send per email), against a real SMTP server."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import BASE_URL, Api, assert_error
from tests.support.members import add_member
from tests.support.smtp import Mailbox
from webapp import clock

SENDER = "passes@acme.test"
EMAIL_KEYS = ["object", "id", "passId", "to", "locale", "status", "error", "createdAt",
              "sentAt"]
ROOT = Path(__file__).resolve().parents[2] / "webapp"
MEMBERS = ("ada@example.com", "grace@example.org", "h0@example.com", "h1@example.com",
           "h2@example.com")


@pytest.fixture
def smtp_app(app: Flask, mailbox: Mailbox, org: dict[str, Any]) -> Flask:
    """The app sending to `mailbox`, its jobs run inline after each commit; the addresses the
    tests send to are members (in test, passes are emailed only to members)."""
    app.config.update(SMTP_URL=mailbox.url(), EMAIL_FROM=SENDER, JOBS_SYNCHRONOUS=True)
    for address in MEMBERS:
        add_member(app, org["id"], address)
    return app


class Clock:
    """Injected time: starts now, moves only when told."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)
        clock.set_now(lambda: self.now)

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def frozen() -> Iterator[Clock]:
    yield Clock()
    clock.set_now(None)


def _template(api: Api, **changes: Any) -> dict[str, Any]:
    response = api.post("/v1/templates", template_body(**changes))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def issue(api: Api, holder_email: str | None = "ada@example.com", *,
          holder_name: str | None = "Ada Lovelace", template: dict | None = None,
          **extra: Any) -> dict[str, Any]:
    template = template or _template(api)
    body: dict[str, Any] = {"templateId": template["id"], "fieldValues": {"member": "Ada"},
                            **extra}
    if holder_email is not None:
        body["holderEmail"] = holder_email
    if holder_name is not None:
        body["holderName"] = holder_name
    response = api.post("/v1/passes", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def send(api: Api, pass_id: str, body: dict[str, Any] | None = None, **kw: Any) -> Any:
    return api.post(f"/v1/passes/{pass_id}/send", body, **kw)


def emails(api: Api, pass_id: str) -> list[dict[str, Any]]:
    response = api.get(f"/v1/passes/{pass_id}/emails")
    assert response.status_code == 200
    return response.get_json()["data"]


def events_of(api: Api, type_: str) -> list[dict[str, Any]]:
    return api.get("/v1/events", query_string={"type": type_}).get_json()["data"]


def parts(message: Any) -> tuple[str, str]:
    """The plain-text and the HTML part of a received message."""
    text = message.get_body(preferencelist=("plain",)).get_content()
    html = message.get_body(preferencelist=("html",)).get_content()
    return text.replace("\r\n", "\n"), html.replace("\r\n", "\n")


def sweep(app: Flask) -> int:
    from webapp.services.outbox import sweep as sweeper

    with app.app_context():
        return sweeper.run()


# ---- the message ---------------------------------------------------------------------------

def test_the_email_arrives_with_the_pass_link(smtp_app: Flask, api: Api,
                                              mailbox: Mailbox) -> None:
    p = issue(api)
    response = send(api, p["id"])
    assert response.status_code == 202, response.get_json()
    email = response.get_json()
    assert list(email) == EMAIL_KEYS
    assert email["object"] == "email" and email["id"].startswith("eml_")
    assert email["passId"] == p["id"] and email["to"] == "ada@example.com"
    assert email["locale"] == "en" and email["status"] == "queued"
    assert email["error"] is None and email["sentAt"] is None

    (received,) = mailbox.wait_for(1)
    assert received.mail_from == SENDER and received.rcpt_tos == ["ada@example.com"]
    message = received.message
    (sender,) = message["From"].addresses
    assert (sender.display_name, sender.addr_spec) == ("Acme Tickets", SENDER)
    assert message["To"] == "ada@example.com"
    assert message["Subject"] == "Your pass from Acme Tickets"
    assert message["Message-ID"] == f"<{email['id']}@acme.test>"
    sent_at = parsedate_to_datetime(message["Date"])
    assert abs((datetime.now(UTC) - sent_at).total_seconds()) < 60
    assert message.get_content_type() == "multipart/alternative"

    url = p["distributionUrl"]
    assert url == f"{BASE_URL}/p/{p['shortId']}"
    text, html = parts(message)
    assert "Hello Ada Lovelace," in text and url in text
    assert f"Add to Apple Wallet: {url}/apple.pkpass" in text
    assert f"Add to Google Wallet: {url}/google" in text
    assert f'href="{url}"' in html
    assert f'href="{url}/apple.pkpass"' in html and f'href="{url}/google"' in html

    shown = api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]
    assert shown["id"] == email["id"] and shown["status"] == "sent"
    assert shown["error"] is None and shown["sentAt"] is not None
    (event,) = events_of(api, "pass.email_sent")
    assert event["data"] == {"object": shown}


def test_holder_data_is_escaped_in_html(smtp_app: Flask, api: Api, mailbox: Mailbox) -> None:
    p = issue(api, holder_name="<script>alert(1)</script> Zoë & Co")
    assert send(api, p["id"]).status_code == 202
    text, html = parts(mailbox.wait_for(1)[0].message)
    assert "<script>" not in html
    assert "Hello &lt;script&gt;alert(1)&lt;/script&gt; Zoë &amp; Co," in html
    assert "Hello <script>alert(1)</script> Zoë & Co," in text  # plain text is not HTML


def test_organization_name_is_escaped_and_quoted(smtp_app: Flask, mailbox: Mailbox) -> None:
    from tests.conftest import _organization

    org = _organization(smtp_app, 'Zoë & "Co" <b>', "zoe")
    add_member(smtp_app, org["id"], "ada@example.com")
    api = Api(smtp_app.test_client(), org["keys"]["test"])
    p = issue(api)
    assert send(api, p["id"]).status_code == 202
    message = mailbox.wait_for(1)[0].message
    assert message["From"].addresses[0].display_name == 'Zoë & "Co" <b>'
    assert message["From"].addresses[0].addr_spec == SENDER
    assert message["Subject"] == 'Your pass from Zoë & "Co" <b>'
    assert "Zoë &amp; &#34;Co&#34; &lt;b&gt;" in parts(message)[1]


def test_wallet_links_only_for_the_wallets_issued_for(smtp_app: Flask, api: Api,
                                                      mailbox: Mailbox) -> None:
    apple_only = _template(api, platforms={"apple": True, "google": False})
    p = issue(api, template=apple_only)
    assert send(api, p["id"]).status_code == 202
    text, html = parts(mailbox.wait_for(1)[0].message)
    assert "/apple.pkpass" in text and "/apple.pkpass" in html
    assert "Google Wallet" not in text and "/google" not in html


def test_no_holder_name_greets_plainly(smtp_app: Flask, api: Api, mailbox: Mailbox) -> None:
    p = issue(api, holder_name=None)
    assert send(api, p["id"]).status_code == 202
    text, _html = parts(mailbox.wait_for(1)[0].message)
    assert text.startswith("Hello,\n")


@pytest.mark.parametrize(("how", "locale", "subject", "apple"), [
    ({"json": {"locale": "de"}}, "de", "Ihr Pass von Acme Tickets", "Zu Apple Wallet hinzufügen"),
    ({"json": {"locale": "fr"}}, "fr", "Acme Tickets vous envoie votre pass",
     "Ajouter à Apple Wallet"),
    ({"json": {"locale": "es"}}, "es", "Tu pase de Acme Tickets", "Añadir a Apple Wallet"),
    ({"headers": {"Accept-Language": "fr-CA, en;q=0.5"}}, "fr",
     "Acme Tickets vous envoie votre pass", "Ajouter à Apple Wallet"),
    ({"headers": {"Accept-Language": "ja"}}, "en", "Your pass from Acme Tickets",
     "Add to Apple Wallet"),
    # The body's locale wins over Accept-Language.
    ({"json": {"locale": "es"}, "headers": {"Accept-Language": "de"}}, "es",
     "Tu pase de Acme Tickets", "Añadir a Apple Wallet"),
])
def test_language_from_locale_or_accept_language(smtp_app: Flask, api: Api, mailbox: Mailbox,
                                                 how: dict, locale: str, subject: str,
                                                 apple: str) -> None:
    p = issue(api)
    response = send(api, p["id"], how.get("json"), headers=how.get("headers"))
    assert response.status_code == 202 and response.get_json()["locale"] == locale
    message = mailbox.wait_for(1)[0].message
    assert message["Subject"] == subject
    text, html = parts(message)
    assert apple in text and apple in html
    assert f'<html lang="{locale}">' in html


def test_to_overrides_the_holder_email(smtp_app: Flask, api: Api, mailbox: Mailbox) -> None:
    p = issue(api)
    response = send(api, p["id"], {"to": "grace@example.org"})
    assert response.status_code == 202 and response.get_json()["to"] == "grace@example.org"
    (received,) = mailbox.wait_for(1)
    assert received.rcpt_tos == ["grace@example.org"]
    assert received.message["To"] == "grace@example.org"
    p = issue(api, holder_email=None)  # no holderEmail: `to` is enough
    assert send(api, p["id"], {"to": "grace@example.org"}).status_code == 202


# ---- refused before anything is queued -----------------------------------------------------

@pytest.mark.parametrize("to", [
    "not-an-address", "ada@localhost", "ada@example", "ada@@example.com", "@example.com",
    "ada@example.com, eve@evil.test", "Ada <ada@example.com>", "ada@exa mple.com",
    "ada@example.com\r\nBcc: eve@evil.test", "ada..x@example.com", ".ada@example.com",
    "zoë@example.com", "ada@-example.com", "a" * 65 + "@example.com",
])
def test_bad_addresses_are_refused_before_anything_is_queued(smtp_app: Flask, api: Api,
                                                             mailbox: Mailbox, to: str) -> None:
    p = issue(api)
    assert_error(send(api, p["id"], {"to": to}), 400, "invalid_request_error",
                 "parameter_invalid", "to")
    assert emails(api, p["id"]) == []
    assert api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"] is None
    assert mailbox.messages == [] and mailbox.refused == []


@pytest.mark.parametrize(("body", "code", "param"), [
    ({"to": 42}, "parameter_invalid", "to"),
    ({"to": ""}, "parameter_invalid", "to"),
    ({"locale": "pt"}, "parameter_invalid", "locale"),
    ({"locale": None}, "parameter_invalid", "locale"),
    ({"cc": "eve@evil.test"}, "parameter_unknown", "cc"),
])
def test_bad_bodies(smtp_app: Flask, api: Api, body: dict, code: str, param: str) -> None:
    p = issue(api)
    assert_error(send(api, p["id"], body), 400, "invalid_request_error", code, param)
    assert emails(api, p["id"]) == []


def test_no_address_at_all_names_to(smtp_app: Flask, api: Api) -> None:
    p = issue(api, holder_email=None)
    error = assert_error(send(api, p["id"]), 400, "invalid_request_error",
                         "parameter_missing", "to")
    assert "holderEmail" in error["message"]
    assert emails(api, p["id"]) == []


def test_a_stored_holder_email_mail_cannot_go_to_asks_for_to(smtp_app: Flask,
                                                             api: Api) -> None:
    p = issue(api, holder_email="ada@intranet")  # issuing takes it; SMTP would not
    assert_error(send(api, p["id"]), 400, "invalid_request_error", "parameter_invalid", "to")


def test_voided_pass_cannot_be_sent(smtp_app: Flask, api: Api, mailbox: Mailbox) -> None:
    """As its updates and download links (spec: 400 `pass_voided`)."""
    p = issue(api)
    assert api.delete(f"/v1/passes/{p['id']}").status_code == 200
    assert_error(send(api, p["id"]), 400, "invalid_request_error", "pass_voided")
    assert emails(api, p["id"]) == [] and mailbox.messages == []


def test_another_organizations_pass_is_404(smtp_app: Flask, api: Api, other_api: Api,
                                           live_api: Api, mailbox: Mailbox) -> None:
    p = issue(api)
    for stranger in (other_api, live_api):  # another tenant, another environment
        assert_error(send(stranger, p["id"]), 404, "not_found_error", "resource_missing")
        assert_error(stranger.get(f"/v1/passes/{p['id']}/emails"), 404, "not_found_error")
    assert_error(send(api, "pass_nope"), 404, "not_found_error")
    assert emails(api, p["id"]) == [] and mailbox.messages == []


@pytest.mark.parametrize(("config", "says"), [
    ({}, "SMTP_URL"),
    ({"SMTP_URL": "smtp://127.0.0.1:2525"}, "EMAIL_FROM"),
    ({"EMAIL_FROM": SENDER}, "SMTP_URL"),
    ({"SMTP_URL": "http://user:hunter2@mail.example.com", "EMAIL_FROM": SENDER}, "smtp://"),
    ({"SMTP_URL": "smtp://mail.example.com:99999", "EMAIL_FROM": SENDER}, "port"),
    ({"SMTP_URL": "smtp://127.0.0.1:2525", "EMAIL_FROM": "Acme <passes@acme.test>"},
     "EMAIL_FROM is not an email address"),
])
def test_without_smtp_settings_sending_is_422(app: Flask, api: Api, config: dict,
                                              says: str) -> None:
    app.config.update({"SMTP_URL": None, "EMAIL_FROM": None, **config})
    p = issue(api)
    error = assert_error(send(api, p["id"]), 422, "invalid_request_error",
                         "email_not_configured")
    assert says in error["message"]
    assert "SMTP_URL" in error["message"] and "EMAIL_FROM" in error["message"]
    assert "hunter2" not in error["message"]
    assert emails(api, p["id"]) == []


# ---- send: true on issue -------------------------------------------------------------------

def test_send_true_on_issue(smtp_app: Flask, api: Api, mailbox: Mailbox) -> None:
    p = issue(api, send=True)
    email = p["lastEmail"]
    assert list(email) == EMAIL_KEYS
    assert email["status"] == "queued" and email["to"] == "ada@example.com"
    assert email["passId"] == p["id"] and email["locale"] == "en"
    (received,) = mailbox.wait_for(1)
    assert p["distributionUrl"] in parts(received.message)[0]
    assert api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]["status"] == "sent"
    assert [e["id"] for e in emails(api, p["id"])] == [email["id"]]


def test_send_true_takes_the_language_of_accept_language(smtp_app: Flask, api: Api,
                                                         mailbox: Mailbox) -> None:
    template = _template(api)
    response = api.post("/v1/passes", {"templateId": template["id"], "send": True,
                                       "holderEmail": "ada@example.com",
                                       "fieldValues": {"member": "Ada"}},
                        headers={"Accept-Language": "de-AT"})
    assert response.status_code == 201 and response.get_json()["lastEmail"]["locale"] == "de"
    assert mailbox.wait_for(1)[0].message["Subject"] == "Ihr Pass von Acme Tickets"


def test_send_false_sends_nothing(smtp_app: Flask, api: Api, mailbox: Mailbox) -> None:
    p = issue(api, send=False)
    assert p["lastEmail"] is None and emails(api, p["id"]) == [] and mailbox.messages == []


@pytest.mark.parametrize(("holder_email", "param"), [
    (None, "holderEmail"), ("ada@intranet", "holderEmail")])
def test_send_true_needs_a_holder_email(smtp_app: Flask, api: Api, holder_email: str | None,
                                        param: str) -> None:
    template = _template(api)
    body: dict[str, Any] = {"templateId": template["id"], "send": True,
                            "fieldValues": {"member": "Ada"}}
    if holder_email:
        body["holderEmail"] = holder_email
    assert_error(api.post("/v1/passes", body), 400, "invalid_request_error", param=param)
    assert api.get("/v1/passes").get_json()["data"] == []  # no pass either


def test_send_true_without_smtp_settings_issues_nothing(app: Flask, api: Api) -> None:
    template = _template(api)
    response = api.post("/v1/passes", {"templateId": template["id"], "send": True,
                                       "holderEmail": "ada@example.com",
                                       "fieldValues": {"member": "Ada"}})
    assert_error(response, 422, "invalid_request_error", "email_not_configured")
    assert api.get("/v1/passes").get_json()["data"] == []


def test_send_must_be_a_boolean(smtp_app: Flask, api: Api) -> None:
    template = _template(api)
    response = api.post("/v1/passes", {"templateId": template["id"], "send": "yes",
                                       "holderEmail": "ada@example.com",
                                       "fieldValues": {"member": "Ada"}})
    assert_error(response, 400, "invalid_request_error", param="send")


# ---- idempotency, list ---------------------------------------------------------------------

def test_a_replayed_send_does_not_send_twice(smtp_app: Flask, api: Api,
                                             mailbox: Mailbox) -> None:
    p = issue(api)
    first = send(api, p["id"], {"to": "grace@example.org"}, idem="send-once")
    again = send(api, p["id"], {"to": "grace@example.org"}, idem="send-once")
    assert first.status_code == again.status_code == 202
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    mailbox.wait_for(1)
    assert len(mailbox.messages) == 1
    assert len(emails(api, p["id"])) == 1
    assert_error(send(api, p["id"], {"to": "eve@example.org"}, idem="send-once"), 400,
                 "idempotency_error", "idempotency_key_reused")


def test_list_of_a_pass_s_emails_newest_first(smtp_app: Flask, api: Api,
                                              mailbox: Mailbox) -> None:
    p = issue(api)
    sent = [send(api, p["id"], {"to": f"h{i}@example.com"}).get_json()["id"] for i in range(3)]
    page = api.get(f"/v1/passes/{p['id']}/emails", query_string={"limit": 2}).get_json()
    assert page["object"] == "list" and page["hasMore"] is True
    assert [e["id"] for e in page["data"]] == sent[::-1][:2]
    assert page["nextCursor"] == sent[1]
    rest = api.get(f"/v1/passes/{p['id']}/emails",
                   query_string={"limit": 2, "cursor": page["nextCursor"]}).get_json()
    assert [e["id"] for e in rest["data"]] == [sent[0]] and rest["hasMore"] is False
    assert all(list(e) == EMAIL_KEYS for e in page["data"])
    assert api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]["id"] == sent[-1]


# ---- the job: retries, failures, one send per email ---------------------------------------

def _row(app: Flask, email_id: str) -> Any:
    from webapp.extensions import db
    from webapp.models import PassEmail

    with app.app_context():
        return db.session.get(PassEmail, email_id)


def test_a_refusal_for_now_is_retried_then_sent(smtp_app: Flask, api: Api, mailbox: Mailbox,
                                                frozen: Clock) -> None:
    mailbox.answers = ["451 4.3.0 Try again later"]
    p = issue(api)
    email = send(api, p["id"]).get_json()
    shown = api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]
    assert shown["status"] == "queued"
    assert shown["error"] == {"code": "smtp_temporary", "message": "451 4.3.0 Try again later"}
    assert mailbox.messages == [] and mailbox.refused == ["451 4.3.0 Try again later"]
    row = _row(smtp_app, email["id"])
    assert row.attempts == 1
    assert abs(row.next_attempt_at - (frozen.now + timedelta(seconds=30))) < timedelta(
        milliseconds=1)

    assert sweep(smtp_app) == 0  # not due yet
    frozen.advance(seconds=31)
    assert sweep(smtp_app) == 1
    mailbox.wait_for(1)
    shown = api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]
    assert shown["status"] == "sent" and shown["error"] is None
    frozen.advance(hours=1)
    assert sweep(smtp_app) == 0
    assert len(mailbox.messages) == 1
    assert len(events_of(api, "pass.email_sent")) == 1
    assert events_of(api, "pass.email_failed") == []


def test_a_permanent_refusal_fails_with_the_reason(smtp_app: Flask, api: Api,
                                                   mailbox: Mailbox, frozen: Clock) -> None:
    mailbox.answers = ["550 5.7.1 Relaying denied"]
    p = issue(api)
    email = send(api, p["id"]).get_json()
    shown = api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]
    assert shown["id"] == email["id"] and shown["status"] == "failed"
    assert shown["error"] == {"code": "smtp_rejected", "message": "550 5.7.1 Relaying denied"}
    assert shown["sentAt"] is None
    (event,) = events_of(api, "pass.email_failed")
    assert event["data"] == {"object": shown}
    frozen.advance(hours=1)
    assert sweep(smtp_app) == 0  # never retried
    assert mailbox.messages == [] and events_of(api, "pass.email_sent") == []


def test_an_unreachable_server_is_retried_a_few_times_then_failed(
        app: Flask, api: Api, org: dict[str, Any], frozen: Clock) -> None:
    add_member(app, org["id"], "ada@example.com")
    closed = Mailbox().start()
    url = closed.url()
    closed.stop()  # nothing listens there now: connection refused
    app.config.update(SMTP_URL=url, EMAIL_FROM=SENDER, JOBS_SYNCHRONOUS=True)
    p = issue(api)
    email = send(api, p["id"]).get_json()
    waits = [30, 120, 600, 1800]
    for attempt, wait in enumerate(waits, start=1):
        row = _row(app, email["id"])
        assert (row.status, row.attempts) == ("queued", attempt)
        assert row.error["code"] == "connection_failed"
        frozen.advance(seconds=wait - 1)
        assert sweep(app) == 0  # the backoff holds
        frozen.advance(seconds=1)
        assert sweep(app) == 1
    shown = api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]
    assert shown["status"] == "failed" and shown["error"]["code"] == "connection_failed"
    assert _row(app, email["id"]).attempts == 5
    assert len(events_of(api, "pass.email_failed")) == 1
    frozen.advance(days=1)
    assert sweep(app) == 0


def test_a_lost_job_is_found_by_the_sweep(smtp_app: Flask, api: Api, mailbox: Mailbox,
                                          frozen: Clock) -> None:
    from webapp.db.transaction import DISPATCHER

    dispatcher = smtp_app.extensions.pop(DISPATCHER)  # the job is lost
    try:
        p = issue(api)
        send(api, p["id"])
    finally:
        smtp_app.extensions[DISPATCHER] = dispatcher
    assert mailbox.messages == []
    assert sweep(smtp_app) == 0  # its first job gets its time
    frozen.advance(seconds=31)
    assert sweep(smtp_app) == 1
    mailbox.wait_for(1)
    assert api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]["status"] == "sent"


def test_one_email_is_sent_once_however_many_jobs_run(smtp_app: Flask, api: Api,
                                                      mailbox: Mailbox) -> None:
    from webapp.db.transaction import DISPATCHER
    from webapp.services.email import delivery

    dispatcher = smtp_app.extensions.pop(DISPATCHER)  # no job yet: the threads below race
    try:
        p = issue(api)
        email_id = send(api, p["id"]).get_json()["id"]
    finally:
        smtp_app.extensions[DISPATCHER] = dispatcher
    outcomes: list[Any] = []
    start = threading.Barrier(4)

    def job() -> None:
        with smtp_app.app_context():
            start.wait()
            outcomes.append(delivery.deliver(email_id))

    threads = [threading.Thread(target=job) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(outcome is not None for outcome in outcomes) == 1
    mailbox.wait_for(1)
    with smtp_app.app_context():
        assert delivery.deliver(email_id) is None  # sent: nothing to do
    assert len(mailbox.messages) == 1
    assert len(events_of(api, "pass.email_sent")) == 1


def test_a_pass_voided_before_the_job_runs_is_not_sent(smtp_app: Flask, api: Api,
                                                       mailbox: Mailbox) -> None:
    from webapp.db.transaction import DISPATCHER
    from webapp.services.email import delivery

    dispatcher = smtp_app.extensions.pop(DISPATCHER)
    try:
        p = issue(api)
        email_id = send(api, p["id"]).get_json()["id"]
        api.delete(f"/v1/passes/{p['id']}")
    finally:
        smtp_app.extensions[DISPATCHER] = dispatcher
    with smtp_app.app_context():
        delivery.deliver(email_id)
    shown = api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]
    assert shown["status"] == "failed" and shown["error"]["code"] == "pass_voided"
    assert mailbox.messages == []


# ---- SMTP: authentication, the password, TLS rules ----------------------------------------

def test_login_and_the_password_stays_out_of_logs(app: Flask, api: Api, org: dict[str, Any],
                                                  caplog: pytest.LogCaptureFixture) -> None:
    add_member(app, org["id"], "ada@example.com")
    box = Mailbox(login=("passes", "s3cret:pa@ss")).start()
    try:
        caplog.set_level(logging.DEBUG)
        app.config.update(SMTP_URL=box.url("passes:s3cret%3Apa%40ss@"), EMAIL_FROM=SENDER,
                          JOBS_SYNCHRONOUS=True)
        p = issue(api)
        assert send(api, p["id"]).status_code == 202
        box.wait_for(1)
        app.config["SMTP_URL"] = box.url("passes:wrong-s3cret@")
        failed = send(api, p["id"]).get_json()
        shown = api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]
        assert shown["id"] == failed["id"] and shown["status"] == "failed", shown
        assert shown["error"]["code"] == "authentication_failed"
        assert "s3cret" not in str(shown)
        assert "s3cret" not in caplog.text and "wrong-s3cret" not in caplog.text
        assert "email " in caplog.text  # the job does log its attempts
    finally:
        box.stop()


def test_smtp_urls() -> None:
    from webapp.services.email import smtp

    server = smtp.parse("smtp://user%40x:p%3Ass@mail.example.com:587")
    assert (server.host, server.port, server.security) == ("mail.example.com", 587, "starttls")
    assert (server.username, server.password) == ("user@x", "p:ss")
    assert "p:ss" not in repr(server) and "p%3Ass" not in repr(server)
    assert smtp.parse("smtps://u:p@mail.example.com").port == 465
    assert smtp.parse("smtps://u:p@mail.example.com").security == "tls"
    assert smtp.parse("smtp://mail.example.com").port == 587
    assert smtp.parse("SMTP://127.0.0.1:25").security == "plain"
    assert smtp.parse("smtp://localhost:25").security == "plain"
    assert smtp.parse("smtp://[::1]:25").security == "plain"
    assert smtp.parse("smtp://mail.example.com:25").security == "starttls"  # never plain
    assert smtp.parse("smtp://10.0.0.5:25").security == "starttls"
    assert smtp.parse("smtp://mail.example.com").username is None
    for bad in ("http://u:hunter2@mail.example.com", "smtp://", "smtp://u:hunter2@:25",
                "smtp://mail.example.com:0", "smtp://mail.example.com:99999",
                "smtp://mail.example.com:port", "smtp://u:hunter2@mail.example.com/x",
                "smtp://mail.example.com?tls=off", "mail.example.com:25"):
        with pytest.raises(ValueError, match="SMTP_URL") as raised:
            smtp.parse(bad)
        assert "hunter2" not in str(raised.value)


def test_starttls_is_required_where_the_url_asks_for_it(mailbox: Mailbox) -> None:
    """A server that does not offer STARTTLS gets nothing: neither login nor message."""
    from email.message import EmailMessage

    from webapp.services.email import smtp

    server = smtp.Server("127.0.0.1", mailbox.port, "starttls", "user", "secret")
    outcome = smtp.send(server, EmailMessage(), SENDER, "ada@example.com")
    assert (outcome.code, outcome.retry) == ("starttls_unavailable", False)
    assert mailbox.messages == []


# ---- shapes, catalogues, OpenAPI -----------------------------------------------------------

def test_the_written_out_email_equals_the_schema_s(smtp_app: Flask, api: Api, org: dict,
                                                   mailbox: Mailbox) -> None:
    from webapp.api import pass_schemas
    from webapp.services.context import Context
    from webapp.services.passes import queries

    mailbox.answers = ["550 5.1.1 No such user"]
    p = issue(api, send=True)
    with smtp_app.app_context():
        item = queries.get(Context(org["id"], "test"), p["id"])
        written, schema = pass_schemas.dump_pass(item), pass_schemas.Pass().dump(item)
    assert list(written.items()) == list(schema.items())
    assert list(written["lastEmail"].items()) == list(schema["lastEmail"].items())
    assert written["lastEmail"]["error"]["code"] == "smtp_rejected"


def test_openapi_documents_sending(client: Any) -> None:
    document = client.get("/v1/openapi.json").get_json()
    operation = document["paths"]["/v1/passes/{pass_id}/send"]["post"]
    assert {"202", "400", "404", "422"} <= set(operation["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in operation["parameters"]
               if p["in"] == "header")
    assert "/v1/passes/{pass_id}/emails" in document["paths"]
    schemas = document["components"]["schemas"]
    assert "lastEmail" in schemas["Pass"]["properties"]
    assert "send" in schemas["PassCreate"]["properties"]
    assert set(schemas["PassSend"]["properties"]) == {"to", "locale"}
    assert list(schemas["Email"]["properties"]) == EMAIL_KEYS
    assert {"pass.email_sent", "pass.email_failed"} <= set(
        schemas["Event"]["properties"]["type"]["enum"])


def test_endpoints_can_subscribe_to_email_events(api: Api) -> None:
    response = api.post("/v1/webhook-endpoints", {
        "url": "https://hooks.example.com/passes",
        "enabledEvents": ["pass.email_sent", "pass.email_failed"]})
    assert response.status_code == 201, response.get_json()


def _email_messages() -> set[str]:
    found = extract_from_dir(str(ROOT / "templates" / "email"),
                             method_map=[("**.html", "jinja2"), ("**.txt", "jinja2")])
    return {message for _file, _line, message, _comments, _context in found}


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_every_email_message_is_translated(language: str) -> None:
    with open(ROOT / "translations" / language / "LC_MESSAGES" / "messages.po", "rb") as fh:
        catalogue = read_po(fh)
    messages = _email_messages()
    assert len(messages) >= 8
    for message in messages:
        entry = catalogue.get(message)
        assert entry is not None and entry.string and not entry.fuzzy, (language, message)


def test_email_languages_are_the_holder_pages() -> None:
    from webapp import i18n
    from webapp.services.email import sending

    assert sending.LANGUAGES == i18n.LANGUAGES


def test_each_email_attempt_is_counted_by_its_outcome(smtp_app: Flask, api: Api,
                                                      mailbox: Mailbox) -> None:
    from tests.support.metrics import grew, samples

    p = issue(api)
    before = samples()
    assert send(api, p["id"]).status_code == 202
    mailbox.wait_for(1)
    assert grew(before, "pass_service_emails_total", kind="pass", outcome="sent") == 1
    assert grew(before, "pass_service_emails_total", kind="pass", outcome="failed") == 0
