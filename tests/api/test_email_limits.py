"""Who passes are emailed to and how often (issue 31): in test only to the organization's
members, and in both environments at most so many emails of a pass and to an address an hour.
Against a real SMTP server; the dashboard's form in tests/dashboard/test_email_limits.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.api.test_email import SENDER, Clock, _template, send
from tests.conftest import Api, assert_error
from tests.support import pki as test_pki
from tests.support.members import add_member
from tests.support.smtp import Mailbox

MEMBER = "ada@example.com"
STRANGER = "eve@example.org"
NOT_MEMBER = ("In test, passes are emailed only to members of your organization (the "
              "addresses they sign in with), and {} is not one. Add the person as a member, "
              "or send from live.")


@pytest.fixture
def smtp_app(app: Flask, mailbox: Mailbox, org: dict[str, Any]) -> Flask:
    app.config.update(SMTP_URL=mailbox.url(), EMAIL_FROM=SENDER, JOBS_SYNCHRONOUS=True,
                      EMAIL_PASS_HOURLY_LIMIT=3, EMAIL_RECIPIENT_HOURLY_LIMIT=4)
    add_member(app, org["id"], MEMBER)
    return app


@pytest.fixture
def frozen() -> Iterator[Clock]:
    from webapp import clock

    yield Clock()
    clock.set_now(None)


@pytest.fixture
def live(smtp_app: Flask, org: dict[str, Any]) -> None:
    """The organization can issue live Apple passes."""
    from webapp.services.credentials import identities

    with smtp_app.app_context():
        identities.add_apple(org["id"], p12=test_pki.make().p12, password="secret")


def _pass(api: Api, holder_email: str | None = None, **extra: Any) -> Any:
    body: dict[str, Any] = {"templateId": _template(api)["id"], "fieldValues": {"member": "A"},
                            "platforms": {"google": False}, **extra}
    if holder_email:
        body["holderEmail"] = holder_email
    return api.post("/v1/passes", body)


def _emails(api: Api, pass_id: str) -> list[dict[str, Any]]:
    return list(api.get(f"/v1/passes/{pass_id}/emails").get_json()["data"])


# ---- test: members only ---------------------------------------------------------------------

def test_in_test_a_stranger_s_address_is_422_naming_to(smtp_app: Flask, api: Api,
                                                         mailbox: Mailbox) -> None:
    p = _pass(api, MEMBER).get_json()
    response = send(api, p["id"], {"to": STRANGER})
    error = assert_error(response, 422, "invalid_request_error", "test_recipient_not_member",
                         "to")
    assert error == {"type": "invalid_request_error", "code": "test_recipient_not_member",
                     "message": NOT_MEMBER.format("to"), "param": "to"}
    assert _emails(api, p["id"]) == []
    assert send(api, p["id"], {"to": "ADA@Example.com"}).status_code == 202  # any case
    assert mailbox.wait_for(1)[0].rcpt_tos == ["ADA@Example.com"]


def test_in_test_a_stranger_as_holder_is_422_naming_holder_email(smtp_app: Flask,
                                                                  api: Api) -> None:
    p = _pass(api, STRANGER).get_json()
    assert_error(send(api, p["id"]), 422, "invalid_request_error",
                 "test_recipient_not_member", "holderEmail")
    assert _emails(api, p["id"]) == []


def test_in_test_issuing_with_send_to_a_stranger_issues_nothing(smtp_app: Flask,
                                                                 api: Api) -> None:
    error = assert_error(_pass(api, STRANGER, send=True), 422, "invalid_request_error",
                         "test_recipient_not_member", "holderEmail")
    assert error["message"] == NOT_MEMBER.format("holderEmail")
    assert api.get("/v1/passes").get_json()["data"] == []
    assert _pass(api, MEMBER, send=True).status_code == 201


def test_another_organization_s_member_is_a_stranger(smtp_app: Flask, api: Api,
                                                      other_org: dict[str, Any]) -> None:
    p = _pass(api).get_json()
    assert_error(send(api, p["id"], {"to": other_org["email"]}), 422,
                 "invalid_request_error", "test_recipient_not_member", "to")
    add_member(smtp_app, other_org["id"], "grace@example.org")
    assert_error(send(api, p["id"], {"to": "grace@example.org"}), 422,
                 "invalid_request_error", "test_recipient_not_member", "to")


def test_email_not_set_up_is_said_first(app: Flask, api: Api) -> None:
    p = _pass(api, STRANGER).get_json()
    assert_error(send(api, p["id"]), 422, "invalid_request_error", "email_not_configured")


def test_in_live_any_address(smtp_app: Flask, live: None, live_api: Api,
                             mailbox: Mailbox) -> None:
    response = _pass(live_api, STRANGER, send=True)
    assert response.status_code == 201, response.get_json()
    assert mailbox.wait_for(1)[0].rcpt_tos == [STRANGER]


# ---- both: hourly caps ----------------------------------------------------------------------

def _assert_limited(response: Any, what: str, limit: int, param: str, minutes: int,
                    seconds: int) -> None:
    error = assert_error(response, 429, "rate_limit_error", "email_rate_limited", param)
    assert error == {"type": "rate_limit_error", "code": "email_rate_limited", "param": param,
                     "message": f"At most {limit} emails {what} are sent in an hour; the next "
                                f"one can go in {minutes} minute{'s' * (minutes != 1)}."}
    assert response.headers["Retry-After"] == str(seconds)


@pytest.mark.parametrize("environment", ["test", "live"])
def test_at_most_so_many_emails_of_a_pass_an_hour(smtp_app: Flask, live: None, api: Api,
                                                  live_api: Api, frozen: Clock,
                                                  environment: str) -> None:
    client = api if environment == "test" else live_api
    p = _pass(client, MEMBER).get_json()
    for _ in range(3):
        assert send(client, p["id"]).status_code == 202
        frozen.advance(minutes=1)
    refused = send(client, p["id"], idem="fourth")
    _assert_limited(refused, "of this pass", 3, "holderEmail", 57, 57 * 60)
    assert len(_emails(client, p["id"])) == 3
    frozen.advance(minutes=57)  # the first send is an hour old
    assert send(client, p["id"], idem="fourth").status_code == 202  # a 429 is not stored


@pytest.mark.parametrize("environment", ["test", "live"])
def test_at_most_so_many_emails_to_an_address_an_hour(smtp_app: Flask, live: None, api: Api,
                                                      live_api: Api, frozen: Clock,
                                                      environment: str) -> None:
    client = api if environment == "test" else live_api
    passes = [_pass(client, MEMBER).get_json() for _ in range(3)]
    for p in passes[:2]:
        for _ in range(2):
            assert send(client, p["id"], {"to": MEMBER}).status_code == 202
    _assert_limited(send(client, passes[2]["id"], {"to": MEMBER}), "to this address", 4,
                    "to", 60, 3600)
    _assert_limited(_pass(client, MEMBER, send=True), "to this address", 4, "holderEmail", 60,
                    3600)
    assert len(client.get("/v1/passes").get_json()["data"]) == 3  # nothing issued
    frozen.advance(hours=1)
    assert send(client, passes[2]["id"], {"to": MEMBER}).status_code == 202


def test_one_address_in_a_batch_counts_each_email(smtp_app: Flask, api: Api) -> None:
    from webapp.services.context import Context
    from webapp.services.passes import issuing

    template = _template(api)
    org_id = api.get("/v1/me").get_json()["organizationId"]
    reqs = [issuing.IssueRequest(template_id=template["id"], field_values={"member": "A"},
                                 holder_email=MEMBER, send_email=True) for _ in range(5)]
    with smtp_app.app_context():
        outcomes = issuing.issue_all(Context(org_id, "test"), reqs)
    assert [getattr(o, "code", "issued") for o in outcomes] == [
        "issued", "issued", "issued", "issued", "email_rate_limited"]


def test_the_caps_are_per_organization(smtp_app: Flask, api: Api, other_api: Api,
                                       other_org: dict[str, Any]) -> None:
    add_member(smtp_app, other_org["id"], MEMBER)
    for client in (api, other_api):
        for _ in range(2):
            p = _pass(client, MEMBER).get_json()
            assert send(client, p["id"]).status_code == 202
            assert send(client, p["id"]).status_code == 202
    p = _pass(other_api, MEMBER).get_json()
    assert send(other_api, p["id"]).status_code == 429


def test_simultaneous_sends_cannot_pass_the_cap(smtp_app: Flask, api: Api) -> None:
    from concurrent.futures import ThreadPoolExecutor

    p = _pass(api, MEMBER).get_json()
    key = api.key

    def one(_: int) -> int:
        return int(Api(smtp_app.test_client(), key).post(
            f"/v1/passes/{p['id']}/send").status_code)

    with ThreadPoolExecutor(8) as pool:
        statuses = sorted(pool.map(one, range(8)))
    assert statuses == [202] * 3 + [429] * 5
    assert len(_emails(api, p["id"])) == 3
