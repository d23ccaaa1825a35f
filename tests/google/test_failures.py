"""Google failing: 403 (service account not on the issuer), 404 (object missing), 429/5xx
(backoff, then retried by the sweep), and a failure never failing the API call."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle
from webapp import clock
from webapp.db.transaction import DISPATCHER, dispatch


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    return api.post("/v1/templates", template_body()).get_json()


def test_403_issuer_not_authorised_shows_in_artifacts(app: Flask, api: Api, template: dict,
                                                       fake_google: FakeGoogle,
                                                       demo_account: dict) -> None:
    fake_google.register(demo_account, set())  # the account is not a user of the issuer
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"}})
    assert response.status_code == 201  # a Google failure never fails the API call
    p = response.get_json()
    # The answer predates the job (run after the commit); the pass then shows its outcome.
    assert p["artifacts"]["google"] == {"ready": False, "reason": "wallet_pending"}
    assert api.get(f"/v1/passes/{p['id']}").get_json()["artifacts"]["google"] == \
        {"ready": False, "reason": "issuer_not_authorized"}
    unavailable = api.client.get(f"/p/{p['shortId']}/google")  # the page, saying why
    assert unavailable.status_code == 200 and "Retry-After" not in unavailable.headers
    update = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"member": "B"}}).get_json()
    got = api.get(f"/v1/pass-updates/{update['update']['id']}").get_json()
    assert got["delivery"]["google"]["status"] == "failed"
    assert got["delivery"]["google"]["error"]["code"] == "issuer_not_authorized"


def test_403_fixed_later_is_picked_up_by_the_save_link(app: Flask, api: Api, template: dict,
                                                        fake_google: FakeGoogle,
                                                        demo_account: dict) -> None:
    fake_google.register(demo_account, set())
    p = issue(api, template, fieldValues={"member": "Ada"})
    fake_google.register(demo_account, {ISSUER})  # the organization fixed its console
    assert api.client.get(f"/p/{p['shortId']}/google").status_code == 302
    assert api.get(f"/v1/passes/{p['id']}").get_json()["artifacts"]["google"]["ready"] is True


def test_404_object_missing_on_update_is_written_again(api: Api, template: dict,
                                                       fake_google: FakeGoogle) -> None:
    p = issue(api, template, fieldValues={"member": "Ada"})
    obj_id = f"{ISSUER}.{p['id']}"
    del fake_google.state.resources[("genericObject", obj_id)]
    update = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"member": "Bea"}}).get_json()
    got = api.get(f"/v1/pass-updates/{update['update']['id']}").get_json()
    assert got["delivery"]["google"] == {"status": "not_saved", "message": None, "error": None}
    assert fake_google.resource("genericObject", obj_id)["header"]["defaultValue"][
        "value"] == "Bea"


def test_5xx_and_429_back_off_and_retry(api: Api, template: dict,
                                        fake_google: FakeGoogle) -> None:
    fake_google.fail("POST", "/walletobjects/v1/genericObject", 503, 429)
    p = issue(api, template, fieldValues={"member": "Ada"})
    assert p["artifacts"]["google"]["ready"] is True
    posts = [c for c in fake_google.state.calls if c == ("POST", "genericObject/")]
    assert len(posts) == 3


def test_google_down_leaves_it_pending_for_the_sweep(app: Flask, api: Api, template: dict,
                                                     fake_google: FakeGoogle) -> None:
    from webapp.services.google import sync

    fake_google.fail("POST", "/walletobjects/v1/genericObject", 503, 503, 503)
    p = issue(api, template, fieldValues={"member": "Ada"})
    assert p["artifacts"]["google"] == {"ready": False, "reason": "wallet_unavailable"}
    with app.app_context():
        row = sync.row_of(p["id"])
        assert row.state == "pending" and row.attempts == 1 and row.next_attempt_at
        assert sync.due() == []  # not yet
        later = row.next_attempt_at + timedelta(seconds=1)
    clock.set_now(lambda: later)
    with app.app_context():
        assert sync.due() == [p["id"]]
        from jobs import tasks

        tasks.sync_google_pass(p["id"])
        assert sync.due() == []
    assert api.get(f"/v1/passes/{p['id']}").get_json()["artifacts"]["google"]["ready"] is True


def test_update_while_google_is_down_stays_pending_then_fails_after_an_hour(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle) -> None:
    from webapp.services.outbox import pass_updates

    p = issue(api, template, fieldValues={"member": "Ada"})
    fake_google.fail("PATCH", "/walletobjects/v1/genericObject", 500, 500, 500)
    update = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"member": "B"}}).get_json()
    uid = update["update"]["id"]
    got = api.get(f"/v1/pass-updates/{uid}").get_json()
    assert got["delivery"]["google"]["status"] == "pending"
    assert got["delivery"]["google"]["error"]["code"] == "wallet_unavailable"
    with app.app_context():
        from webapp.extensions import db
        from webapp.models import PassUpdate

        record = db.session.get(PassUpdate, uid)
        assert record.attempts == 1 and record.next_attempt_at is not None
        created = record.created_at
    fake_google.fail("PATCH", "/walletobjects/v1/genericObject", 500, 500, 500)
    clock.set_now(lambda: created + timedelta(hours=1, seconds=1))
    with app.app_context():
        pass_updates.push(uid)
    got = api.get(f"/v1/pass-updates/{uid}").get_json()
    assert got["delivery"]["google"]["status"] == "failed"
    assert got["delivery"]["google"]["error"]["code"] == "wallet_unavailable"


def test_update_retried_by_the_sweep_succeeds(app: Flask, api: Api, template: dict,
                                              fake_google: FakeGoogle) -> None:
    from webapp.services.outbox import pass_updates

    p = issue(api, template, fieldValues={"member": "Ada"})
    fake_google.fail("PATCH", "/walletobjects/v1/genericObject", 502, 502, 502)
    uid = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"member": "B"}}
                    ).get_json()["update"]["id"]
    with app.app_context():
        pass_updates.push(uid)
    got = api.get(f"/v1/pass-updates/{uid}").get_json()
    assert got["delivery"]["google"] == {"status": "not_saved", "message": None, "error": None}


def test_bad_token_endpoint_answer_fails_with_credentials_invalid(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle) -> None:
    fake_google.accounts.clear()  # the token endpoint no longer knows the key
    p = issue(api, template, fieldValues={"member": "Ada"})
    assert p["artifacts"]["google"] == {"ready": False, "reason": "credentials_invalid"}


def test_generated_demo_identity_never_calls_google(app: Flask, api: Api, template: dict,
                                                    fake_google: FakeGoogle) -> None:

    app.config["DEMO_GOOGLE_SERVICE_ACCOUNT"] = None
    app.config["GOOGLE_TOKEN_URI"] = "https://oauth2.googleapis.com/token"
    seen: list[tuple[str, str]] = []
    app.extensions[DISPATCHER] = lambda task, *row_ids: seen.append((task, *row_ids))
    p = issue(api, template, fieldValues={"member": "Ada"})
    assert p["artifacts"]["google"] == {"ready": False, "reason": "credentials_missing"}
    assert fake_google.state.calls == [] and fake_google.state.token_requests == 0
    # Known to fail before it starts: no job is queued for it.
    assert [task for task, _ in seen if task == "sync_google_pass"] == []


def test_rollback_discards_the_google_write(app: Flask, api: Api, template: dict,
                                            fake_google: FakeGoogle) -> None:
    from webapp.extensions import db
    from webapp.models import GoogleObject
    from webapp.services.context import Context
    from webapp.services.outbox import record as outbox_record
    from webapp.services.passes import issuing

    seen: list[tuple[str, str]] = []
    app.extensions[DISPATCHER] = lambda task, *row_ids: seen.append((task, *row_ids))
    original = outbox_record.passes_issued

    def failing(session, items):  # type: ignore[no-untyped-def]
        original(session, items)
        raise RuntimeError("boom after the Google row was recorded")

    outbox_record.passes_issued = failing
    try:
        with app.app_context(), pytest.raises(RuntimeError):
            ctx = Context(organization_id=_org(api), environment="test")
            issuing.issue(ctx, issuing.IssueRequest(template_id=template["id"],
                                                    field_values={"member": "Ada"}))
        with app.app_context():
            dispatch()
            assert db.session.query(GoogleObject).count() == 0
    finally:
        outbox_record.passes_issued = original
    assert seen == [] and fake_google.state.calls == []


def _org(api: Api) -> str:
    return api.get("/v1/me").get_json()["organizationId"]


def test_expired_token_is_refreshed_once(api: Api, template: dict,
                                         fake_google: FakeGoogle) -> None:
    issue(api, template, fieldValues={"member": "A"})
    assert fake_google.state.token_requests == 1
    fake_google.state.tokens.clear()  # Google forgot the token: the next call gets 401
    p = issue(api, template, fieldValues={"member": "B"})
    assert p["artifacts"]["google"]["ready"] is True
    assert fake_google.state.token_requests == 2


def test_a_pass_for_an_issuer_google_knows_is_written_by_a_job(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle) -> None:

    seen: list[tuple[str, str]] = []
    app.extensions[DISPATCHER] = lambda task, *row_ids: seen.append((task, *row_ids))
    p = issue(api, template, fieldValues={"member": "Ada"})
    assert ("sync_google_pass", p["id"]) in seen
    assert p["artifacts"]["google"] == {"ready": False, "reason": "wallet_pending"}


def test_the_save_link_tries_google_once_while_the_holder_waits(
        app: Flask, api: Api, template: dict, fake_google: FakeGoogle) -> None:
    # A job retries (GOOGLE_WALLET_RETRIES is 2 here); a holder's tap must not wait for that.
    fake_google.fail("POST", "/walletobjects/v1/genericObject", 503, 503, 503)
    p = issue(api, template, fieldValues={"member": "Ada"})
    fake_google.state.calls.clear()
    fake_google.fail("POST", "/walletobjects/v1/genericObject", 503, 503, 503)
    response = api.client.get(f"/p/{p['shortId']}/google")
    assert response.status_code == 503
    posts = [c for c in fake_google.state.calls if c == ("POST", "genericObject/")]
    assert len(posts) == 1


def test_a_person_waiting_gets_a_short_timeout_and_no_retries(app: Flask) -> None:
    from webapp.services.credentials import identities
    from webapp.services.google import sync

    with app.app_context():
        identity = identities.demo_google()
        job = sync.wallet_client(identity).settings
        waiting = sync.wallet_client(identity, person_waiting=True).settings
    assert (job.retries, job.timeout) == (2, 15.0)
    assert (waiting.retries, waiting.timeout) == (0, sync.PERSON_WAITING_TIMEOUT)
