"""Sending a pass by email from its dashboard page: the form, its status, the setup note."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_data, text
from tests.support.members import add_member
from tests.support.smtp import Mailbox


@pytest.fixture
def smtp_app(app: Flask, mailbox: Mailbox, org: dict[str, Any]) -> Flask:
    app.config.update(SMTP_URL=mailbox.url(), EMAIL_FROM="passes@acme.test",
                      JOBS_SYNCHRONOUS=True)
    for address in ("ada@example.com", "grace@example.org"):  # in test, mail goes to members
        add_member(app, org["id"], address)
    return app


def _pass(api: Api, **extra: Any) -> dict[str, Any]:
    template = api.post("/v1/templates", template_body()).get_json()
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"},
                                       "holderName": "Ada Lovelace", **extra})
    assert response.status_code == 201
    return response.get_json()


def _page(dash: Dash, pass_id: str) -> str:
    response = dash.get(f"/dashboard/test/passes/{pass_id}")
    assert response.status_code == 200
    return text(response)


def test_send_from_the_pass_page(smtp_app: Flask, dash: Dash, api: Api,
                                 mailbox: Mailbox) -> None:
    p = _pass(api, holderEmail="ada@example.com")
    page = _page(dash, p["id"])
    form = form_data(page, "email-form")
    assert form["to"] == "ada@example.com" and form["locale"] == "en"
    assert "Send by email" in page and 'id="last-email"' not in page

    response = dash.post(f"/dashboard/test/passes/{p['id']}/email", {**form, "locale": "de"})
    assert response.status_code == 303
    (received,) = mailbox.wait_for(1)
    assert received.rcpt_tos == ["ada@example.com"]
    assert received.message["Subject"] == "Ihr Pass von Acme Tickets"
    page = _page(dash, p["id"])
    assert "The pass is on its way to ada@example.com." in page
    assert 'id="last-email"' in page and ">Sent<" in page and "Resend" in page
    assert form_data(page, "email-form")["locale"] == "de"  # a resend keeps the language
    shown = api.get(f"/v1/passes/{p['id']}").get_json()["lastEmail"]
    assert shown["status"] == "sent" and shown["locale"] == "de"


def test_send_to_another_address(smtp_app: Flask, dash: Dash, api: Api,
                                 mailbox: Mailbox) -> None:
    p = _pass(api)  # no holder email: the field starts empty
    assert form_data(_page(dash, p["id"]), "email-form")["to"] == ""
    response = dash.post(f"/dashboard/test/passes/{p['id']}/email",
                         {"to": "grace@example.org", "locale": "en"})
    assert response.status_code == 303
    assert mailbox.wait_for(1)[0].rcpt_tos == ["grace@example.org"]
    assert form_data(_page(dash, p["id"]), "email-form")["to"] == "grace@example.org"


def test_a_bad_address_is_shown_and_nothing_is_sent(smtp_app: Flask, dash: Dash, api: Api,
                                                     mailbox: Mailbox) -> None:
    p = _pass(api, holderEmail="ada@example.com")
    response = dash.post(f"/dashboard/test/passes/{p['id']}/email",
                         {"to": "ada@localhost", "locale": "en"}, htmx=True)
    assert response.status_code == 422
    fragment = text(response)
    assert fragment.lstrip().startswith('<section class="card" id="email">')  # the panel only
    assert "to is not an email address" in fragment
    assert form_data(fragment, "email-form")["to"] == "ada@localhost"
    assert api.get(f"/v1/passes/{p['id']}/emails").get_json()["data"] == []
    assert mailbox.messages == []


def test_a_failed_email_shows_why(smtp_app: Flask, dash: Dash, api: Api,
                                  mailbox: Mailbox) -> None:
    mailbox.answers = ["550 5.1.1 <ada@example.com>: no such user"]
    p = _pass(api, holderEmail="ada@example.com")
    dash.post(f"/dashboard/test/passes/{p['id']}/email", {"to": "ada@example.com"})
    page = _page(dash, p["id"])
    assert ">Failed<" in page
    assert "550 5.1.1 &lt;ada@example.com&gt;: no such user" in page


def test_without_smtp_settings_the_page_says_what_to_configure(dash: Dash, api: Api) -> None:
    p = _pass(api, holderEmail="ada@example.com")
    page = _page(dash, p["id"])
    assert 'id="email-setup"' in page and 'id="email-form"' not in page
    said = re.search(r'<div class="flash bad" role="note" id="email-setup">\s*<p>(.*?)</p>\s*'
                     r'</div>', page, re.S).group(1)
    assert said == ("<strong>Sending by email is not set up on this server.</strong> Sending "
                    "email needs SMTP_URL (the SMTP server, such as "
                    "smtp://user:password@smtp.example.com:587) and EMAIL_FROM (the sender "
                    "address, such as passes@example.com) in the service&#39;s environment. "
                    "Then restart the service.")
    assert page.count("not set up") == 1 and page.count("SMTP_URL") == 1
    response = dash.post(f"/dashboard/test/passes/{p['id']}/email",
                         {"to": "ada@example.com"})
    assert response.status_code == 422 and 'id="email-setup"' in text(response)
    assert api.get(f"/v1/passes/{p['id']}/emails").get_json()["data"] == []


def test_a_voided_pass_offers_no_sending(smtp_app: Flask, dash: Dash, api: Api) -> None:
    p = _pass(api, holderEmail="ada@example.com")
    api.delete(f"/v1/passes/{p['id']}")
    assert 'id="email-form"' not in _page(dash, p["id"])
    response = dash.post(f"/dashboard/test/passes/{p['id']}/email", {"to": "ada@example.com"})
    assert response.status_code == 422


def test_another_organizations_pass_is_404(smtp_app: Flask, other_dash: Dash, dash: Dash,
                                           api: Api, mailbox: Mailbox) -> None:
    p = _pass(api, holderEmail="ada@example.com")
    assert other_dash.post(f"/dashboard/test/passes/{p['id']}/email",
                           {"to": "eve@example.org"}).status_code == 404
    assert dash.post(f"/dashboard/live/passes/{p['id']}/email",
                     {"to": "eve@example.org"}).status_code == 404
    assert mailbox.messages == []


def test_sending_needs_the_csrf_token(smtp_app: Flask, dash: Dash, api: Api,
                                      mailbox: Mailbox) -> None:
    p = _pass(api, holderEmail="ada@example.com")
    response = dash.post(f"/dashboard/test/passes/{p['id']}/email",
                         {"to": "ada@example.com"}, csrf=False)
    assert response.status_code == 400
    assert mailbox.messages == []
