"""API keys and members pages, and the member services behind them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from tests.dashboard.conftest import Dash, sign_in, text
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.services.accounts import members, users
from webapp.services.context import Context


def test_keys_are_listed_without_secrets(dash: Dash, org: dict[str, Any]) -> None:
    page = text(dash.get("/dashboard/test/keys"))
    assert len(re.findall(r"<code>svc_(test|live)_[0-9A-Za-z]{4}…</code>", page)) == 2
    for secret in org["keys"].values():
        assert secret not in page
        assert secret[:13] + "…" in page
    assert "Never" in page  # last used


def test_create_key_shows_the_secret_once_and_it_works(dash: Dash) -> None:
    response = dash.post("/dashboard/test/keys", {"name": "Shop", "environment": "live"},
                         htmx=True, header=True)
    assert response.status_code == 201
    body = text(response)
    assert body.lstrip().startswith('<div id="keys-panel">')  # the fragment, not the page
    secret = re.search(r"svc_live_[0-9A-Za-z]{32}", body).group(0)
    assert f'data-copy="{secret}"' in body
    assert secret not in text(dash.get("/dashboard/test/keys"))
    me = dash.client.get("/v1/me", headers={"Authorization": f"Bearer {secret}"})
    assert me.status_code == 200 and me.get_json()["environment"] == "live"


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"name": "x" * 101}, "name", "name must be 1 to 100 characters."),
    ({"name": "ok", "environment": "prod"}, "environment", "environment must be test or live."),
])
def test_create_key_with_bad_input_is_422_next_to_the_field(dash: Dash, data: dict[str, str],
                                                            field: str, message: str) -> None:
    response = dash.post("/dashboard/test/keys", data, htmx=True, header=True)
    assert response.status_code == 422
    assert f'<p class="field-error" id="err-{field}">{message}</p>' in text(response)


def test_revoke_key(dash: Dash, org: dict[str, Any]) -> None:
    page = text(dash.get("/dashboard/test/keys"))
    key_id = re.findall(r"/dashboard/test/keys/(key_[0-9a-z]+)/revoke", page)[0]
    assert "hx-confirm=" in page
    response = dash.post(f"/dashboard/test/keys/{key_id}/revoke", htmx=True, header=True)
    assert response.status_code == 200
    assert "is revoked" in text(response)
    revoked = [s for s in org["keys"].values()
               if dash.client.get("/v1/me", headers={"Authorization": f"Bearer {s}"}
                                  ).status_code == 401]
    assert len(revoked) == 1


def test_revoking_another_organizations_key_is_404(dash: Dash, other_dash: Dash) -> None:
    page = text(other_dash.get("/dashboard/test/keys"))
    key_id = re.findall(r"/dashboard/test/keys/(key_[0-9a-z]+)/revoke", page)[0]
    assert dash.post(f"/dashboard/test/keys/{key_id}/revoke").status_code == 404
    assert "Revoked" not in text(other_dash.get("/dashboard/test/keys"))


def test_owner_adds_a_member_who_can_sign_in(app: Flask, dash: Dash) -> None:
    response = dash.post("/dashboard/test/members", {"email": "New@Acme.test",
                                                     "password": "initial pass"},
                         htmx=True, header=True)
    assert response.status_code == 201
    assert "new@acme.test was added." in text(response)
    member = sign_in(app.test_client(), "new@acme.test", "initial pass")
    page = text(member.get("/dashboard/test/members"))
    assert "Add a member" not in page and "new@acme.test" in page
    # a member (not an owner) cannot add or remove people
    response = member.post("/dashboard/test/members", {"email": "x@acme.test",
                                                       "password": "12345678"})
    assert response.status_code == 403


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"email": "not-an-email", "password": "long enough"}, "email",
     "Enter a valid email address."),
    ({"email": "a@acme.test", "password": "short"}, "password",
     "The initial password needs at least 8 characters."),
])
def test_add_member_bad_input(dash: Dash, data: dict[str, str], field: str,
                              message: str) -> None:
    response = dash.post("/dashboard/test/members", data, htmx=True, header=True)
    assert response.status_code == 422
    assert f'id="err-{field}">{message}</p>' in text(response)


def test_adding_an_existing_user_keeps_their_password(app: Flask, dash: Dash,
                                                      other_org: dict[str, Any]) -> None:
    response = dash.post("/dashboard/test/members", {"email": other_org["email"],
                                                     "password": ""})
    assert response.status_code == 201
    assert "already have" in text(response)
    again = dash.post("/dashboard/test/members", {"email": other_org["email"]})
    assert again.status_code == 422 and "is a member already." in text(again)
    with app.app_context():
        staff = users.sign_in(other_org["email"], other_org["password"])
        assert staff is not None and len(staff.memberships) == 2


def test_owner_removes_a_member_who_then_loses_access(app: Flask, dash: Dash) -> None:
    dash.post("/dashboard/test/members", {"email": "temp@acme.test", "password": "temp pass 1"})
    member = sign_in(app.test_client(), "temp@acme.test", "temp pass 1")
    page = text(dash.get("/dashboard/test/members"))
    membership_id = re.findall(r"/dashboard/test/members/(mem_[0-9a-z]+)/remove", page)[0]
    response = dash.post(f"/dashboard/test/members/{membership_id}/remove", htmx=True,
                         header=True)
    assert response.status_code == 200 and "temp@acme.test" not in text(response)
    assert member.get("/dashboard/test/passes").status_code == 303  # no organization left


def test_removing_another_organizations_member_is_404(app: Flask, dash: Dash,
                                                     other_org: dict[str, Any]) -> None:
    with app.app_context():
        theirs = members.list_(Context(other_org["id"], "test", "dashboard"))[0]
    assert dash.post(f"/dashboard/test/members/{theirs.id}/remove").status_code == 404
    with app.app_context():
        assert members.list_(Context(other_org["id"], "test", "dashboard")) == [theirs]


def test_member_services(app: Flask, org: dict[str, Any]) -> None:
    with app.app_context():
        owner = users.sign_in(org["email"], org["password"])
        assert owner is not None and owner.memberships[0].role == "owner"
        ctx = Context(org["id"], "test", "dashboard", user_id=owner.id)
        with pytest.raises(Conflict) as caught:
            members.remove(ctx, owner.memberships[0].id)
        assert caught.value.code == "last_owner"
        with pytest.raises(NotFound):
            members.remove(ctx, "mem_nope")
        with pytest.raises(InvalidRequest):
            members.add(ctx, "bad", "long enough")
        added = members.add(ctx, "m@acme.test", "long enough")
        stranger = Context(org["id"], "test", "dashboard", user_id=added.member.user_id)
        with pytest.raises(members.NotOwner):
            members.add(stranger, "n@acme.test", "long enough")
        assert [m.email for m in members.list_(ctx)] == [org["email"], "m@acme.test"]
        assert users.sign_in(org["email"], "wrong password") is None
        assert users.load(owner.id, "not-the-token") is None
        assert users.load(owner.id, owner.session_token) == owner
