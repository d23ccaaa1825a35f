"""API keys and members pages, and the member services behind them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from tests.dashboard.conftest import Dash, form_data, sign_in, text
from tests.support.members import PASSWORD, add_member
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


# Adding people is by invitation: tests/dashboard/test_invitations.py.


def test_owner_removes_a_member_who_then_loses_access(app: Flask, dash: Dash,
                                                      org: dict[str, Any]) -> None:
    add_member(app, org["id"], "temp@acme.test")
    member = sign_in(app.test_client(), "temp@acme.test", PASSWORD)
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


# ---- restricted keys -------------------------------------------------------------------------

def _me(dash: Dash, secret: str) -> Any:
    return dash.client.get("/v1/me", headers={"Authorization": f"Bearer {secret}"}).get_json()


def _access_of(page: str, name: str) -> str:
    """The Access cell of the key called `name` in the keys table, as text."""
    row = re.search(rf'<td data-label="Name">{re.escape(name)}</td>.*?'
                    r'<td data-label="Access">(.*?)</td>', page, re.S)
    assert row, f"no row for {name}"
    return " ".join(re.sub(r"<[^>]+>", " ", row.group(1)).split())


def test_the_create_form_offers_presets_and_custom_levels(dash: Dash) -> None:
    page = text(dash.get("/dashboard/test/keys"))
    select = re.search(r'<select id="key-preset" name="preset" data-shows-choice[^>]*>(.*?)'
                       r"</select>", page, re.S)
    assert select
    assert re.findall(r'<option value="(\w+)"', select.group(1)) == [
        "full_access", "read_only", "issue_passes", "custom"]
    assert re.search(r'<option value="full_access" selected>Full access</option>',
                     select.group(1))
    assert "<strong>Issue passes</strong>: Issues, updates and voids passes" in page
    assert "(write passes, download links; read templates, assets)" in page
    # The per-resource choice shows for "Custom" only (dashboard.js: data-shows-choice).
    assert re.search(r'<fieldset class="stack " data-shown-for="custom" hidden>', page)
    for resource in ("templates", "assets", "passes", "download_links", "webhooks", "events"):
        assert f'<select id="key-level-{resource}" name="level_{resource}">' in page
    assert form_data(page, "key-form")["preset"] == "full_access"
    assert form_data(page, "key-form")["level_passes"] == "none"


def test_the_keys_list_shows_each_keys_access(dash: Dash) -> None:
    page = text(dash.get("/dashboard/test/keys"))
    assert "<th>Access</th>" in page
    assert page.count('<td data-label="Access">Full access</td>') == 2


@pytest.mark.parametrize(("preset", "access", "detail", "levels"), [
    ("read_only", "Read only",
     "read templates, assets, passes, download links, webhooks, events, redemptions, "
     "bulk jobs, insights",
     dict.fromkeys(("templates", "assets", "passes", "download_links", "webhooks", "events",
                    "redemptions", "bulk_jobs", "insights"), "read")),
    ("issue_passes", "Issue passes", "write passes, download links; read templates, assets",
     {"templates": "read", "assets": "read", "passes": "write", "download_links": "write",
      "webhooks": "none", "events": "none", "redemptions": "none", "bulk_jobs": "none",
      "insights": "none"}),
])
def test_create_a_key_with_a_preset(dash: Dash, preset: str, access: str, detail: str,
                                    levels: dict[str, str]) -> None:
    page = text(dash.get("/dashboard/test/keys"))
    # A preset wins over levels left in the hidden custom part of the form.
    data = {**form_data(page, "key-form"), "name": "Restricted", "preset": preset,
            "level_webhooks": "write"}
    response = dash.post("/dashboard/test/keys", data, htmx=True)
    assert response.status_code == 201, text(response)
    body = text(response)
    assert f"Access: {access}." in body
    secret = re.search(r"svc_test_[0-9A-Za-z]{32}", body).group(0)
    assert _me(dash, secret)["permissions"] == levels
    assert _access_of(body, "Restricted") == f"{access} {detail}"


def test_create_a_custom_key(dash: Dash) -> None:
    page = text(dash.get("/dashboard/test/keys"))
    data = {**form_data(page, "key-form"), "name": "Door", "preset": "custom",
            "level_passes": "write", "level_events": "read"}
    response = dash.post("/dashboard/test/keys", data, htmx=True)
    assert response.status_code == 201, text(response)
    secret = re.search(r"svc_test_[0-9A-Za-z]{32}", text(response)).group(0)
    assert _me(dash, secret)["permissions"] == {
        "templates": "none", "assets": "none", "passes": "write", "download_links": "none",
        "webhooks": "none", "events": "read", "redemptions": "none", "bulk_jobs": "none",
        "insights": "none"}
    listed = text(dash.get("/dashboard/test/keys"))
    assert _access_of(listed, "Door") == "Custom: write passes; read events"
    denied = dash.client.get("/v1/templates", headers={"Authorization": f"Bearer {secret}"})
    assert denied.status_code == 403
    assert denied.get_json()["error"]["message"] == (
        "This API key cannot read templates: it needs the templates:read permission.")


def test_create_a_key_with_no_access(dash: Dash) -> None:
    response = dash.post("/dashboard/test/keys", {"name": "Parked", "preset": "custom"},
                         htmx=True)
    assert response.status_code == 201
    assert _access_of(text(response), "Parked") == "No access (GET /v1/me only)"


def test_a_bad_custom_level_is_422_and_the_custom_part_stays_open(dash: Dash) -> None:
    response = dash.post("/dashboard/test/keys", {"name": "Odd", "preset": "custom",
                                                  "level_passes": "admin",
                                                  "level_events": "read"}, htmx=True)
    assert response.status_code == 422
    body = text(response)
    assert ('<p class="field-error" id="err-permissions">Unknown level &#39;admin&#39; for '
            "passes: use none, read or write.</p>") in body
    assert '<fieldset class="stack has-error" data-shown-for="custom" >' in body
    assert re.search(r'<option value="read" selected>Read</option>', body)  # events kept
    assert "Odd" not in re.sub(r'value="Odd"', "", body)  # no key was made


def test_an_unknown_preset_is_422_next_to_the_select(dash: Dash) -> None:
    response = dash.post("/dashboard/test/keys", {"name": "Odd", "preset": "admin"}, htmx=True)
    assert response.status_code == 422
    assert ('<p class="field-error" id="err-preset">Unknown preset &#39;admin&#39;: use '
            "full_access, read_only or issue_passes.</p>") in text(response)
