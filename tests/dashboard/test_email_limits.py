"""The pass page's "Send by email" under issue 31's rules: in test only to members (422, said
in the form), at most so many an hour in both environments (429, said, with Retry-After)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.api.test_email_limits import STRANGER, _pass, live, smtp_app  # noqa: F401
from tests.conftest import Api
from tests.dashboard.conftest import Dash, text
from tests.support.smtp import Mailbox


def _send(dash: Dash, pass_id: str, to: str, env: str = "test") -> Any:
    return dash.post(f"/dashboard/{env}/passes/{pass_id}/email", {"to": to, "locale": "en"},
                     htmx=True)


def test_in_test_a_stranger_s_address_is_refused_in_the_form(smtp_app: Flask,  # noqa: F811
                                                             dash: Dash, api: Api,
                                                             mailbox: Mailbox) -> None:
    p = _pass(api, STRANGER).get_json()
    response = _send(dash, p["id"], STRANGER)
    assert response.status_code == 422
    fragment = text(response)
    assert fragment.lstrip().startswith('<section class="card" id="email">')
    assert ("In test, passes are emailed only to members of your organization (the addresses "
            "they sign in with), and to is not one.") in fragment
    assert api.get(f"/v1/passes/{p['id']}/emails").get_json()["data"] == []
    assert _send(dash, p["id"], "ada@example.com").status_code == 200  # a member: sent
    assert mailbox.wait_for(1)[0].rcpt_tos == ["ada@example.com"]


def test_the_hourly_cap_is_said_with_the_wait(smtp_app: Flask, dash: Dash,  # noqa: F811
                                              api: Api) -> None:
    p = _pass(api, "ada@example.com").get_json()
    for _ in range(3):
        assert _send(dash, p["id"], "ada@example.com").status_code == 200
    response = _send(dash, p["id"], "ada@example.com")
    assert response.status_code == 429
    assert 0 < int(response.headers["Retry-After"]) <= 3600
    assert "At most 3 emails of this pass are sent in an hour; the next one can go in" \
        in text(response)
    assert len(api.get(f"/v1/passes/{p['id']}/emails").get_json()["data"]) == 3


def test_in_live_a_stranger_gets_it_until_the_cap(smtp_app: Flask, live: None,  # noqa: F811
                                                  dash: Dash, live_api: Api,
                                                  mailbox: Mailbox) -> None:
    p = _pass(live_api, STRANGER).get_json()
    for _ in range(3):
        assert _send(dash, p["id"], STRANGER, "live").status_code == 200
    assert len(mailbox.wait_for(3)) == 3
    assert _send(dash, p["id"], STRANGER, "live").status_code == 429
