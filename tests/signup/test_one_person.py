"""One person, one pass: a second sign-up with the same email (any case) issues nothing and
shows nothing of the pass; the pass goes to that address by email when email is set up. Safe
when the same form is sent twice at once (both databases)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask

from tests.conftest import Api
from tests.signup.conftest import Visitor, path_of
from tests.support.members import add_member
from tests.support.smtp import Mailbox

SENDER = "passes@acme.test"


def _passes(api: Api) -> list[dict[str, Any]]:
    return list(api.get("/v1/passes").get_json()["data"])


@pytest.fixture
def mail_app(app: Flask, mailbox: Mailbox, org: dict[str, Any]) -> Flask:
    """Email set up, jobs inline; in test, passes are emailed to members only."""
    app.config.update(SMTP_URL=mailbox.url(), EMAIL_FROM=SENDER, JOBS_SYNCHRONOUS=True)
    add_member(app, org["id"], "ada@example.com")
    return app


def test_a_second_sign_up_without_email_says_already_signed_up(api: Api, visitor: Visitor
                                                                ) -> None:
    first = visitor.submit()
    assert first.status_code == 303
    [item] = _passes(api)
    again = visitor.submit(holderEmail="  ADA@Example.COM ", holderName="Someone Else")
    assert again.status_code == 200
    html = again.get_data(as_text=True)
    assert "This address is already signed up" in html
    assert item["shortId"] not in html and "/p/" not in html and "Location" not in again.headers
    assert [p["id"] for p in _passes(api)] == [item["id"]]
    full = api.get(f"/v1/passes/{item['id']}").get_json()
    assert full["holderName"] == "Ada Lovelace"  # nothing of the second form was kept


def test_with_email_the_pass_is_sent_and_the_page_says_check_your_email(
        mail_app: Flask, api: Api, mailbox: Mailbox, template: dict[str, Any]) -> None:
    visitor = Visitor(mail_app.test_client(), path_of(template), "de")
    assert visitor.submit().status_code == 303
    [item] = _passes(api)
    [first] = mailbox.wait_for(1)
    assert first.rcpt_tos == ["ada@example.com"]
    assert item["distributionUrl"] in first.message.get_body(("plain",)).get_content()
    again = visitor.submit(holderEmail="Ada@Example.com")
    assert again.status_code == 200
    html = again.get_data(as_text=True)
    assert "Sehen Sie in Ihr E-Mail-Postfach" in html  # German, as the visitor reads
    assert item["shortId"] not in html
    [_, second] = mailbox.wait_for(2)
    assert second.rcpt_tos == ["Ada@Example.com"]  # to the address typed, the pass's link
    assert item["distributionUrl"] in second.message.get_body(("plain",)).get_content()
    assert second.message["Content-Language"] == "de"
    assert len(_passes(api)) == 1


def test_other_templates_and_environments_are_other_sign_ups(api: Api, app: Flask,
                                                             live_api: Api,
                                                             visitor: Visitor) -> None:
    from tests.signup.conftest import signup_template

    assert visitor.submit().status_code == 303
    other = Visitor(app.test_client(), path_of(signup_template(api)))
    assert other.submit().status_code == 303
    assert len(_passes(api)) == 2


def test_a_voided_pass_does_not_keep_the_address(api: Api, visitor: Visitor) -> None:
    visitor.submit()
    [item] = _passes(api)
    api.delete(f"/v1/passes/{item['id']}")
    again = visitor.submit()
    assert again.status_code == 303
    assert len(_passes(api)) == 2


def test_an_erased_holder_can_sign_up_again(api: Api, visitor: Visitor, app: Flask) -> None:
    visitor.submit()
    [item] = _passes(api)
    assert api.post(f"/v1/passes/{item['id']}/erase").status_code == 200
    with app.app_context():
        from sqlalchemy import text

        from webapp.extensions import db

        assert db.session.execute(text("SELECT count(*) FROM enrollments")).scalar() == 0
    assert visitor.submit().status_code == 303


def test_two_sign_ups_at_once_make_one_pass(api: Api, app: Flask,
                                            template: dict[str, Any]) -> None:
    """Four browsers send the same address at the same moment: one pass (PostgreSQL: the
    claim's INSERT waits for the first commit; SQLite: the writers' queue)."""
    visitors = [Visitor(app.test_client(), path_of(template)) for _ in range(4)]
    tokens = [v.token() for v in visitors]
    barrier = threading.Barrier(len(visitors))
    statuses: list[int] = []

    def send(v: Visitor, token: str) -> None:
        barrier.wait()
        statuses.append(v.submit(token=token, holderEmail="Grace@example.com").status_code)

    threads = [threading.Thread(target=send, args=pair) for pair in zip(visitors, tokens,
                                                                         strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(statuses) == [200, 200, 200, 303]
    assert len(_passes(api)) == 1
