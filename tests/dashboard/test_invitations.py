"""Invitations (issue 31): an owner invites an address and gets a link to pass on, with the
same answer whether or not the address has an account; the person signs in (or chooses a
password) and accepts; only then are they a member. Replayed, expired, withdrawn and other
organizations' links; removal ends only the sessions of that membership."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from flask import Flask

from tests.dashboard.conftest import Dash, csrf_token, sign_in, text
from tests.dashboard.test_sessions import (  # noqa: F401
    Clock,
    assert_signed_in,
    assert_signed_out,
    copy_of,
    frozen,
)
from tests.support.members import add_member

MEMBERS = "/dashboard/test/members"
LINK = re.compile(r'id="invitation-link" type="text" value="https?://[^"/]+(/dashboard/'
                  r'invitations/[A-Za-z0-9_-]+)"')
GONE = "It was used, it expired, or it was withdrawn."


def invite(dash: Dash, email: str, role: str = "member") -> tuple[Any, str]:
    response = dash.post(MEMBERS, {"email": email, "role": role}, htmx=True, header=True)
    assert response.status_code == 201, text(response)
    match = LINK.search(text(response))
    assert match, text(response)
    return response, match.group(1)


def accept(app: Flask, link: str, password: str) -> Any:
    client = app.test_client()
    token = csrf_token(client, link)
    return client, client.post(link, data={"password": password, "csrf_token": token})


def memberships(app: Flask, email: str) -> list[str]:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import Membership, Organization, User

    with app.app_context():
        return list(db.session.scalars(
            select(Organization.name).join(Membership,
                                           Membership.organization_id == Organization.id)
            .join(User, User.id == Membership.user_id).where(User.email == email)
            .order_by(Organization.name)))


def withdraw_all(app: Flask) -> None:
    from sqlalchemy import delete

    from webapp.db.transaction import transaction
    from webapp.models import Invitation

    with app.app_context(), transaction() as session:
        session.execute(delete(Invitation))


def _normal(response: Any, email: str) -> str:
    """The answer with what differs between any two answers taken out: the address, the link,
    the form and CSRF tokens, IDs and times."""
    html = text(response).replace(email, "EMAIL")
    html = re.sub(r"/dashboard/invitations/[A-Za-z0-9_-]+", "/dashboard/invitations/T", html)
    html = re.sub(r'name="(csrf_token|form_token)" value="[^"]+"', r'name="\1"', html)
    html = re.sub(r"inv_[0-9a-z]+", "inv_X", html)
    return re.sub(r'datetime="[^"]+"|title="[^"]+"', "", html)


def test_the_answer_is_the_same_whether_or_not_the_address_has_an_account(
        app: Flask, dash: Dash, other_org: dict[str, Any]) -> None:
    has_account, _ = invite(dash, other_org["email"])
    withdraw_all(app)  # each answer then lists only its own invitation
    no_account, _ = invite(dash, "nobody@acme.test")
    assert has_account.status_code == no_account.status_code == 201
    assert sorted(has_account.headers.keys()) == sorted(no_account.headers.keys())
    assert _normal(has_account, other_org["email"]) == _normal(no_account, "nobody@acme.test")
    assert "already have" not in text(has_account)
    # nobody is a member yet; the invitations are listed for the owner
    assert memberships(app, other_org["email"]) == ["Other Co"]
    assert memberships(app, "nobody@acme.test") == []
    invite(dash, other_org["email"])
    page = text(dash.get(MEMBERS))
    assert 'id="open-invitations"' in page and "nobody@acme.test" in page


def test_someone_with_an_account_signs_in_and_accepts(app: Flask, dash: Dash,
                                                      other_org: dict[str, Any]) -> None:
    _, link = invite(dash, other_org["email"], "scanner")
    client = app.test_client()
    page = text(client.get(link))
    assert "Join Acme Tickets" in page and "as <strong>scanner</strong>" in page
    assert other_org["email"] in page
    token = csrf_token(client, link)
    wrong = client.post(link, data={"password": "not their password", "csrf_token": token})
    assert wrong.status_code == 401
    assert "The password is not correct." in text(wrong)
    assert memberships(app, other_org["email"]) == ["Other Co"]
    joined = client.post(link, data={"password": other_org["password"], "csrf_token": token})
    assert joined.status_code == 303 and joined.headers["Location"] == "/dashboard/scan"
    assert memberships(app, other_org["email"]) == ["Acme Tickets", "Other Co"]
    assert "Scanning" in text(client.get("/dashboard/test/scan"))  # signed in, in Acme
    assert client.get("/dashboard/test/passes").status_code == 303  # a scanner, in Acme


def test_someone_new_chooses_a_password(app: Flask, dash: Dash) -> None:
    _, link = invite(dash, "New@Acme.test")
    _, short = accept(app, link, "short")
    assert short.status_code == 422
    assert "The password needs at least 8 characters." in text(short)
    assert memberships(app, "new@acme.test") == []
    _, joined = accept(app, link, "a fine password")
    assert joined.status_code == 303 and joined.headers["Location"].startswith("/dashboard/test/")
    assert memberships(app, "new@acme.test") == ["Acme Tickets"]
    member = sign_in(app.test_client(), "new@acme.test", "a fine password")
    page = text(member.get(MEMBERS))
    assert "Invite someone" not in page and "new@acme.test" in page
    # a member (not an owner) cannot invite
    assert member.post(MEMBERS, {"email": "x@acme.test"}).status_code == 403


def test_a_signed_in_invitee_accepts_with_one_click(app: Flask, dash: Dash,
                                                     other_org: dict[str, Any]) -> None:
    _, link = invite(dash, other_org["email"])
    theirs = sign_in(app.test_client(), other_org["email"], other_org["password"])
    page = text(theirs.get(link))
    assert 'id="invitation-form"' in page and 'name="password"' not in page
    response = theirs.post(link, {})
    assert response.status_code == 303
    assert memberships(app, other_org["email"]) == ["Acme Tickets", "Other Co"]


def test_signed_in_as_someone_else_does_not_accept(app: Flask, dash: Dash,
                                                   other_org: dict[str, Any]) -> None:
    _, link = invite(dash, "friend@acme.test")
    theirs = sign_in(app.test_client(), other_org["email"], other_org["password"])
    page = text(theirs.get(link))
    assert f"You are signed in as {other_org['email']}. Sign out" in page
    response = theirs.post(link, {})
    assert response.status_code == 422
    assert "This invitation is for friend@acme.test: sign out" in text(response)
    assert memberships(app, other_org["email"]) == ["Other Co"]
    assert memberships(app, "friend@acme.test") == []


def test_a_link_works_once(app: Flask, dash: Dash) -> None:
    _, link = invite(dash, "once@acme.test")
    _, joined = accept(app, link, "a fine password")
    assert joined.status_code == 303
    again = app.test_client()
    response = again.get(link)
    assert response.status_code == 404 and GONE in text(response)
    replayed = again.post(link, data={"password": "another password",
                                      "csrf_token": csrf_token(again, "/dashboard/login")})
    assert replayed.status_code == 404 and GONE in text(replayed)
    assert memberships(app, "once@acme.test") == ["Acme Tickets"]


def test_an_expired_link_does_not_work(app: Flask, dash: Dash, frozen: Clock) -> None:  # noqa: F811
    _, link = invite(dash, "late@acme.test")
    frozen.forward(days=7, seconds=-1)
    assert app.test_client().get(link).status_code == 200
    frozen.forward(seconds=1)
    client = app.test_client()
    response = client.get(link)
    assert response.status_code == 404 and GONE in text(response)
    posted = client.post(link, data={"password": "a fine password",
                                     "csrf_token": csrf_token(client, "/dashboard/login")})
    assert posted.status_code == 404
    assert memberships(app, "late@acme.test") == []
    assert "late@acme.test" not in text(dash.get(MEMBERS))


def test_unknown_and_odd_tokens_are_404(app: Flask) -> None:
    client = app.test_client()
    for token in ("nope", "x" * 200, "%00", "a.b"):
        assert client.get(f"/dashboard/invitations/{token}").status_code == 404


def test_withdrawn_and_replaced_links_stop_working(app: Flask, dash: Dash,
                                                   other_dash: Dash) -> None:
    _, first = invite(dash, "maybe@acme.test")
    _, second = invite(dash, "maybe@acme.test")  # again: replaces the first
    assert app.test_client().get(first).status_code == 404
    assert app.test_client().get(second).status_code == 200
    invitation_id = re.search(r"/dashboard/test/invitations/(inv_[0-9a-z]+)/withdraw",
                              text(dash.get(MEMBERS))).group(1)
    # another organization's owner cannot withdraw it, nor see it
    assert other_dash.post(f"/dashboard/test/invitations/{invitation_id}/withdraw"
                           ).status_code == 404
    assert "maybe@acme.test" not in text(other_dash.get(MEMBERS))
    assert app.test_client().get(second).status_code == 200
    response = dash.post(f"/dashboard/test/invitations/{invitation_id}/withdraw", htmx=True,
                         header=True)
    assert response.status_code == 200
    assert "The invitation was withdrawn" in text(response)
    assert app.test_client().get(second).status_code == 404
    assert dash.post(f"/dashboard/test/invitations/{invitation_id}/withdraw"
                     ).status_code == 404


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"email": "not-an-email"}, "email", "Enter a valid email address."),
    ({"email": "a" * 250 + "@acme.test"}, "email", "Enter a valid email address."),
    ({"email": "a@acme.test", "role": "root"}, "role",
     "role must be one of owner, member, scanner."),
])
def test_bad_invitations_are_422_next_to_the_field(dash: Dash, data: dict[str, str],
                                                   field: str, message: str) -> None:
    response = dash.post(MEMBERS, data, htmx=True, header=True)
    assert response.status_code == 422
    assert f'id="err-{field}">{message}</p>' in text(response)


def test_a_member_already_is_said(dash: Dash, org: dict[str, Any]) -> None:
    response = dash.post(MEMBERS, {"email": org["email"].upper()}, htmx=True, header=True)
    assert response.status_code == 422
    assert f"{org['email']} is a member already." in text(response)


def test_wrong_passwords_at_a_link_count_as_failed_sign_ins(app: Flask, dash: Dash,
                                                            other_org: dict[str, Any]) -> None:
    app.config["DASHBOARD_LOGIN_LIMIT"] = "2/minute"
    _, link = invite(dash, other_org["email"])
    client = app.test_client()
    token = csrf_token(client, link)
    for _ in range(2):
        assert client.post(link, data={"password": "guess", "csrf_token": token}
                           ).status_code == 401
    limited = client.post(link, data={"password": other_org["password"], "csrf_token": token})
    assert limited.status_code == 429 and "Too many failed attempts" in text(limited)
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    # the same address's sign-in shares the count
    page = app.test_client()
    response = page.post("/dashboard/login", data={
        "email": other_org["email"], "password": other_org["password"],
        "csrf_token": csrf_token(page)})
    assert response.status_code == 429


def test_the_token_stays_out_of_the_log(app: Flask, dash: Dash,
                                        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    _, link = invite(dash, "quiet@acme.test")
    app.test_client().get(link)
    token = link.rsplit("/", 1)[1]
    assert token not in caplog.text
    assert "/dashboard/invitations/[token]" in caplog.text


def test_removal_ends_only_that_membership_s_sessions(app: Flask, dash: Dash,
                                                      other_org: dict[str, Any]) -> None:
    # The other organization's owner joins Acme; they have a session in each organization.
    membership_id = add_member(app, org_id(app, "Acme Tickets"), other_org["email"])
    in_acme = sign_in(app.test_client(), other_org["email"], other_org["password"])
    assert "Acme Tickets" in text(in_acme.get("/dashboard/test/keys"))  # the first, by name
    thief = copy_of(app, in_acme)
    at_home = sign_in(app.test_client(), other_org["email"], other_org["password"])
    at_home.post("/dashboard/test/organization", {"organization_id": other_org["id"]})

    response = dash.post(f"/dashboard/test/members/{membership_id}/remove")
    assert response.status_code == 200 and "The member was removed." in text(response)
    assert_signed_out(app, in_acme)
    assert_signed_out(app, thief)
    assert_signed_in(at_home)
    assert_signed_in(dash)
    # added again later: the old session (and its copies) stay ended
    add_member(app, org_id(app, "Acme Tickets"), other_org["email"])
    assert_signed_out(app, thief)


def org_id(app: Flask, name: str) -> str:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import Organization

    with app.app_context():
        return str(db.session.scalar(select(Organization.id).where(Organization.name == name)))



# -- with email set up, the link goes by email only ----------------------------------------

def test_with_email_set_up_the_link_goes_to_the_address_only(
        app: Flask, dash: Dash, mailbox: Any, other_org: dict[str, Any]) -> None:
    from tests.support.metrics import grew, samples

    app.config.update(SMTP_URL=mailbox.url(), EMAIL_FROM="passes@acme.test",
                      JOBS_SYNCHRONOUS=True)
    before = samples()
    answers = []
    for email in (other_org["email"], "fresh@acme.test"):
        response = dash.post(MEMBERS, {"email": email, "role": "member"}, htmx=True,
                             header=True)
        assert response.status_code == 201
        assert "is on its way by email" in text(response)
        assert "/dashboard/invitations/" not in text(response)  # the owner never sees it
        answers.append(_normal(response, email))
        if len(answers) == 1:
            withdraw_all(app)  # each answer then lists only its own invitation
    assert answers[0] == answers[1]
    received = mailbox.wait_for(2)
    assert [m.rcpt_tos for m in received] == [[other_org["email"]], ["fresh@acme.test"]]
    assert grew(before, "pass_service_emails_total", kind="invitation", outcome="sent") == 2
    body = received[1].message.get_body(("plain",)).get_content()
    assert received[1].message["Subject"] == "You are invited to Acme Tickets"
    assert "as member" in body and "It works once" in body
    link = re.search(r"https?://[^/\s]+(/dashboard/invitations/[\w-]+)", body).group(1)
    _, joined = accept(app, link, "a fine password")
    assert joined.status_code == 303
    assert memberships(app, "fresh@acme.test") == ["Acme Tickets"]



def test_two_simultaneous_acceptances_make_one_member(app: Flask, dash: Dash) -> None:
    from concurrent.futures import ThreadPoolExecutor

    _, link = invite(dash, "twice@acme.test")
    clients = [app.test_client() for _ in range(4)]
    tokens = [csrf_token(client, link) for client in clients]

    def one(i: int) -> int:
        return int(clients[i].post(link, data={"password": f"password number {i}",
                                               "csrf_token": tokens[i]}).status_code)

    with ThreadPoolExecutor(4) as pool:
        statuses = sorted(pool.map(one, range(4)))
    assert statuses == [303, 404, 404, 404]
    assert memberships(app, "twice@acme.test") == ["Acme Tickets"]
