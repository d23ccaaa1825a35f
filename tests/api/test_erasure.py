"""Erasing a pass's holder and exporting their data (issue 33): `POST /v1/passes/<id>/erase`,
`GET /v1/passes/<id>/export`; after an erasure no table holds the holder's values."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import inspect, select, text

from tests.api.factories import definition
from tests.conftest import Api, assert_error
from tests.support.members import add_member
from tests.support.openapi import component_validator
from tests.support.receiver import Receiver
from tests.support.smtp import Mailbox
from webapp import vault

NAME, EMAIL = "Zephyrine Quillfeather", "zephyrine.q@erase-me.example"
OLD_LEVEL, LEVEL = "Gold-Zq1", "Platinum-Zq9"
BARCODE, EXTERNAL_ID, LOCATION = "BARCODE-XQ-7781", "EXT-ZQ-4242", "Door-Zq-North"
# What no table may hold afterwards (also case-folded, as the search column keeps it).
ERASED = (NAME, EMAIL, OLD_LEVEL, LEVEL, BARCODE, EXTERNAL_ID, LOCATION, "Zephyrine",
          "Quillfeather", "erase-me")


@pytest.fixture(autouse=True)
def _inline_jobs(app: Flask, mailbox: Mailbox) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True, WEBHOOKS_ALLOW_PRIVATE_NETWORKS=True,
                      WEBHOOK_TIMEOUT_SECONDS=2, SMTP_URL=mailbox.url(),
                      EMAIL_FROM="passes@acme.test")


def _template(api: Api) -> dict[str, Any]:
    body = {"name": "Members", "type": "generic", "definition": definition(
        barcode={"format": "qr", "perPass": True}, redemption={"mode": "multiple"})}
    response = api.post("/v1/templates", body)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def _issue(api: Api, template: dict[str, Any], **body: Any) -> str:
    response = api.post("/v1/passes", {"templateId": template["id"], "barcodeValue": BARCODE,
                                       "fieldValues": {"member": NAME}, **body})
    assert response.status_code == 201, response.get_data(as_text=True)
    return str(response.get_json()["id"])


def _bulk_issue(api: Api, template: dict[str, Any]) -> str:
    """A pass issued by a bulk job (the only way to an externalId); its ID."""
    item = {"externalId": EXTERNAL_ID, "holderName": NAME, "holderEmail": EMAIL,
            "barcodeValue": BARCODE, "fieldValues": {"member": NAME, "level": OLD_LEVEL}}
    job = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                     "items": [item]})
    assert job.status_code == 202, job.get_data(as_text=True)
    results = api.get(f"/v1/bulk-jobs/{job.get_json()['id']}/results").get_json()["data"]
    assert results[0]["status"] == "succeeded", results
    return str(results[0]["passId"])


def _lived(app: Flask, org: dict[str, Any], api: Api, receiver: Receiver) -> str:
    """A pass with a history: issued in bulk, updated, emailed, redeemed, its events
    delivered to a webhook; every write with an Idempotency-Key. (The test environment
    emails only the organization's members: the holder is one while the email is sent.)"""
    member = add_member(app, org["id"], EMAIL)
    hook = api.post("/v1/webhook-endpoints", {"url": receiver.url, "enabledEvents": ["*"]})
    assert hook.status_code == 201, hook.get_data(as_text=True)
    pass_id = _bulk_issue(api, _template(api))
    updated = api.patch(f"/v1/passes/{pass_id}", {"fieldValues": {"level": LEVEL}})
    assert updated.status_code == 200, updated.get_data(as_text=True)
    sent = api.post(f"/v1/passes/{pass_id}/send", {})
    assert sent.status_code == 202, sent.get_data(as_text=True)
    assert api.get(f"/v1/passes/{pass_id}/emails").get_json()["data"][0]["status"] == "sent"
    _remove_member(app, member)
    redeemed = api.post(f"/v1/passes/{pass_id}/redemptions", {"location": LOCATION})
    assert redeemed.status_code == 201, redeemed.get_data(as_text=True)
    # A message whose audience staff found by the holder's email (issue 33).
    message = api.post("/v1/messages", {"header": "Hello", "body": "Pool opens at 9.",
                                        "audience": {"search": EMAIL}})
    assert message.status_code == 202 and message.get_json()["audienceSize"] == 1
    # And one to the pass by ID that names the holder (its event names no single pass).
    named = api.post("/v1/messages", {"header": f"Hi {NAME}", "body": f"Welcome to {LEVEL}.",
                                      "audience": {"passIds": [pass_id]}})
    assert named.status_code == 202, named.get_data(as_text=True)
    receiver.wait_for(4)
    return pass_id


def _remove_member(app: Flask, membership_id: str) -> None:
    from webapp.db.transaction import transaction
    from webapp.models import Membership, User

    with app.app_context(), transaction() as session:
        membership = session.get(Membership, membership_id)
        user = session.get(User, membership.user_id)
        session.delete(membership)
        session.flush()
        session.delete(user)


def _database_text(app: Flask) -> str:
    """Every value of every table as text, encrypted ones opened too."""
    from webapp.extensions import db

    parts: list[str] = []
    with app.app_context():
        for table in inspect(db.engine).get_table_names():
            with db.engine.connect() as connection:
                rows = connection.execute(text(f'SELECT * FROM "{table}"')).all()
            for row in rows:
                for value in row:
                    parts.extend(_texts(value))
    return "\n".join(parts)


def _texts(value: Any) -> list[str]:
    if isinstance(value, memoryview):
        value = bytes(value)
    if isinstance(value, (dict, list)):
        value = json.dumps(value, ensure_ascii=False)
    if isinstance(value, bytes):
        value = value.decode(errors="replace")
    if not isinstance(value, str):
        return [str(value)]
    try:
        return [value, vault.decrypt(value.encode()).decode(errors="replace")]
    except Exception:  # not a vault token
        return [value]


def _found(app: Flask) -> list[str]:
    everything = _database_text(app).casefold()
    return [value for value in ERASED if value.casefold() in everything]


def test_erase_leaves_no_trace_in_any_table(app: Flask, org: dict[str, Any], api: Api,
                                            receiver: Receiver) -> None:
    pass_id = _lived(app, org, api, receiver)
    assert set(_found(app)) == set(ERASED)  # the check sees each of them before
    response = api.post(f"/v1/passes/{pass_id}/erase", idem="erase-1")
    assert response.status_code == 200, response.get_data(as_text=True)
    erased = response.get_json()
    component_validator(api, "Pass").validate(erased)
    assert erased["status"] == "voided" and erased["erasedAt"] is not None
    assert (erased["holderName"], erased["holderEmail"], erased["fieldValues"]) == (
        None, None, {})
    assert _found(app) == []
    assert api.get(f"/v1/passes/{pass_id}").get_json()["status"] == "voided"


def test_erase_voids_and_emits_pass_erased_without_personal_data(
        app: Flask, org: dict[str, Any], api: Api, receiver: Receiver) -> None:
    pass_id = _lived(app, org, api, receiver)
    api.post(f"/v1/passes/{pass_id}/erase")
    types = [e["type"] for e in api.get("/v1/events?limit=100").get_json()["data"]]
    assert types.count("pass.erased") == 1 and types.count("pass.voided") == 1
    [event] = api.get("/v1/events?type=pass.erased").get_json()["data"]
    obj = event["data"]["object"]
    assert obj["id"] == pass_id and obj["holderName"] is None and obj["holderEmail"] is None
    assert not any(value in json.dumps(event) for value in ERASED)
    assert event["data"]["passUpdateId"].startswith("pupd_")
    updates = api.get(f"/v1/passes/{pass_id}/updates").get_json()["data"]
    # Newest first: the erased content over the holder's in both wallets, after the void.
    assert [u["kind"] for u in updates[:2]] == ["erase", "void"]
    assert updates[0]["id"] == event["data"]["passUpdateId"]
    assert updates[0]["walletChanged"] is True and updates[0]["notificationMode"] == "silent"
    for update in updates:
        assert all(c["from"] is None and c["to"] is None
                   for c in update["changes"]["fields"])


def test_erasing_twice_answers_the_same_pass_and_one_event(api: Api) -> None:
    template = _template(api)
    pass_id = _issue(api, template, holderName=NAME)
    first = api.post(f"/v1/passes/{pass_id}/erase").get_json()
    again = api.post(f"/v1/passes/{pass_id}/erase")
    assert again.status_code == 200
    assert again.get_json()["erasedAt"] == first["erasedAt"]
    assert again.get_json()["voidedAt"] == first["voidedAt"]
    assert len(api.get("/v1/events?type=pass.erased").get_json()["data"]) == 1
    kinds = [u["kind"] for u in api.get(f"/v1/passes/{pass_id}/updates").get_json()["data"]]
    assert kinds == ["erase", "void"]
    replay = api.post(f"/v1/passes/{pass_id}/erase", idem="same")
    assert api.post(f"/v1/passes/{pass_id}/erase", idem="same").get_data() == \
        replay.get_data()


def test_a_voided_pass_is_erased_without_a_second_void(api: Api) -> None:
    template = _template(api)
    pass_id = _issue(api, template, holderEmail=EMAIL)
    assert api.delete(f"/v1/passes/{pass_id}").status_code == 200
    response = api.post(f"/v1/passes/{pass_id}/erase")
    assert response.status_code == 200 and response.get_json()["holderEmail"] is None
    assert len(api.get("/v1/events?type=pass.voided").get_json()["data"]) == 1
    # Wallets still hold the holder's data of the earlier void: the erasure is sent to them.
    kinds = [u["kind"] for u in api.get(f"/v1/passes/{pass_id}/updates").get_json()["data"]]
    assert kinds == ["erase", "void"]
    # The erased holder is no longer found by a search.
    assert api.get("/v1/passes?search=zephyrine").get_json()["data"] == []


def test_other_organizations_and_environments_are_404(api: Api, live_api: Api,
                                                      other_api: Api) -> None:
    template = _template(api)
    pass_id = _issue(api, template, holderName=NAME)
    for client in (live_api, other_api):
        assert_error(client.post(f"/v1/passes/{pass_id}/erase"), 404, "not_found_error")
        assert_error(client.get(f"/v1/passes/{pass_id}/export"), 404, "not_found_error")
    assert_error(api.post("/v1/passes/pass_nope/erase"), 404, "not_found_error")
    assert_error(api.get("/v1/passes/nonsense/export"), 404, "not_found_error")
    assert api.get(f"/v1/passes/{pass_id}").get_json()["holderName"] == NAME


def test_erase_needs_the_idempotency_key(api: Api) -> None:
    response = api.client.post("/v1/passes/pass_nope/erase",
                               headers={"Authorization": f"Bearer {api.key}"})
    assert response.status_code == 400


def test_export_holds_everything_about_the_holder(app: Flask, org: dict[str, Any], api: Api,
                                                  receiver: Receiver) -> None:
    pass_id = _lived(app, org, api, receiver)
    response = api.get(f"/v1/passes/{pass_id}/export")
    assert response.status_code == 200
    found = response.get_json()
    assert list(found) == ["object", "pass", "updates", "emails", "redemptions",
                           "balanceTransactions", "events",
                           "installations", "activity", "enrollment"]
    assert found["object"] == "pass_export"
    component_validator(api, "PassExport").validate(found)
    shown = found["pass"]
    assert (shown["id"], shown["holderName"], shown["holderEmail"]) == (pass_id, NAME, EMAIL)
    assert shown["fieldValues"] == {"member": NAME, "level": LEVEL}
    changed = [c for u in found["updates"] for c in u["changes"]["fields"]]
    assert {"key": "level", "label": "Level", "from": OLD_LEVEL, "to": LEVEL} in changed
    [email] = found["emails"]
    assert email["to"] == EMAIL
    [redemption] = found["redemptions"]
    assert redemption["location"] == LOCATION
    types = {e["type"] for e in found["events"]}
    assert {"pass.created", "pass.updated", "pass.redeemed", "message.sent"} <= types
    [sent] = [e for e in found["events"] if e["type"] == "message.sent"]
    assert sent["data"]["object"]["audience"] == {"passIds": [pass_id]}
    assert all(pass_id in json.dumps(e) for e in found["events"])
    assert set(found["installations"]) == {"apple", "google"}
    assert isinstance(found["activity"], list)
    assert found["enrollment"] is None  # issued through the API, not a sign-up page


def test_export_after_erasure_holds_nothing_personal(api: Api) -> None:
    template = _template(api)
    pass_id = _issue(api, template, holderName=NAME)
    api.post(f"/v1/passes/{pass_id}/erase")
    found = api.get(f"/v1/passes/{pass_id}/export").get_json()
    assert NAME not in json.dumps(found)
    assert found["pass"]["erasedAt"] is not None


def test_the_erase_is_stored_in_one_transaction_with_its_key(app: Flask, api: Api) -> None:
    """The answer replayed for the erase's own key holds no personal data either."""
    from webapp.extensions import db
    from webapp.models import IdempotencyRecord

    template = _template(api)
    body = {"templateId": template["id"], "holderName": NAME, "barcodeValue": BARCODE,
            "fieldValues": {"member": NAME}}
    pass_id = api.post("/v1/passes", body, idem="issue-1").get_json()["id"]
    api.post(f"/v1/passes/{pass_id}/erase", idem="erase-1")
    with app.app_context():
        bodies = [vault.decrypt(body.encode()).decode()
                  for body in db.session.scalars(select(IdempotencyRecord.body)) if body]
    assert bodies and not any(NAME in body for body in bodies)
    replay = api.post("/v1/passes", body, idem="issue-1")
    assert replay.status_code == 201 and replay.get_json()["id"] == pass_id
    assert replay.get_json()["holderName"] is None


def test_a_queued_email_is_not_sent_after_the_erasure(app: Flask, org: dict[str, Any],
                                                      api: Api) -> None:
    from webapp.db.transaction import DISPATCHER

    add_member(app, org["id"], EMAIL)  # the test environment emails members only
    app.extensions[DISPATCHER] = None  # the queue is down: the email stays queued
    pass_id = _issue(api, _template(api), holderEmail=EMAIL)
    assert api.post(f"/v1/passes/{pass_id}/send", {}).get_json()["status"] == "queued"
    api.post(f"/v1/passes/{pass_id}/erase")
    [email] = api.get(f"/v1/passes/{pass_id}/emails").get_json()["data"]
    assert email["status"] == "failed" and email["to"] == ""
    assert email["error"]["code"] == "holder_erased"


def test_two_erasures_at_once_make_one(app: Flask, org: dict[str, Any], api: Api) -> None:
    """The second waits for the first's commit (its row lock, or SQLite's one writer),
    then finds the pass erased: one erase update, one event, the same answer."""
    template = _template(api)
    pass_id = _issue(api, template, holderName=NAME)
    start = threading.Barrier(2)
    answers: list[Any] = []

    def erase() -> None:
        client = Api(app.test_client(), org["keys"]["test"])
        start.wait()
        answers.append(client.post(f"/v1/passes/{pass_id}/erase"))

    threads = [threading.Thread(target=erase) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(a.status_code for a in answers) == [200, 200]
    assert answers[0].get_json()["erasedAt"] == answers[1].get_json()["erasedAt"]
    kinds = [u["kind"] for u in api.get(f"/v1/passes/{pass_id}/updates").get_json()["data"]]
    assert kinds == ["erase", "void"]
    assert len(api.get("/v1/events?type=pass.erased").get_json()["data"]) == 1


def test_a_loyalty_card_s_movements_are_exported_and_their_notes_erased(
        app: Flask, api: Api, png: Any) -> None:
    from tests.api.factories import loyalty_definition, store_body
    from tests.conftest import upload_asset

    logo = upload_asset(api, "logo", png(160, 50))
    template = api.post("/v1/templates", store_body(loyalty_definition(logo))).get_json()
    card = api.post("/v1/passes", {"templateId": template["id"], "holderName": NAME,
                                   "balance": 100}).get_json()
    moved = api.post(f"/v1/passes/{card['id']}/balance-transactions", {
        "amount": 25, "reason": f"Coffee for {NAME}", "reference": EXTERNAL_ID})
    assert moved.status_code == 201, moved.get_json()
    exported = api.get(f"/v1/passes/{card['id']}/export").get_json()
    component_validator(api, "PassExport").validate(exported)
    assert [(m["amount"], m["reason"], m["reference"]) for m in
            exported["balanceTransactions"]] == [(100, "opening balance", None),
                                                 (25, f"Coffee for {NAME}", EXTERNAL_ID)]
    assert api.post(f"/v1/passes/{card['id']}/erase").status_code == 200
    after = api.get(f"/v1/passes/{card['id']}/export").get_json()
    assert [(m["amount"], m["reason"], m["reference"]) for m in
            after["balanceTransactions"]] == [(100, None, None), (25, None, None)]
    assert _found(app) == []


def _stored_passes(app: Flask) -> dict[str, str | None]:
    """Each stored answer's key, with the pass it names."""
    from webapp.extensions import db
    from webapp.models import IdempotencyRecord

    with app.app_context():
        rows = db.session.execute(select(IdempotencyRecord.key, IdempotencyRecord.pass_id))
        return {str(key): pass_id for key, pass_id in rows}


def test_each_stored_answer_names_the_pass_it_is_about(app: Flask, org: dict[str, Any],
                                                        api: Api) -> None:
    """A successful answer about one pass names it; an error, a message and a template name
    none (an erasure opens those too)."""
    add_member(app, org["id"], EMAIL)
    template = api.post("/v1/templates", {"name": "Members", "type": "generic",
                                          "definition": definition(redemption={
                                              "mode": "multiple"})}, idem="template")
    body = {"templateId": template.get_json()["id"], "holderEmail": EMAIL,
            "fieldValues": {"member": NAME}}
    pass_id = api.post("/v1/passes", body, idem="issue").get_json()["id"]
    calls = [
        api.patch(f"/v1/passes/{pass_id}", {"fieldValues": {"level": LEVEL}}, idem="update"),
        api.post(f"/v1/passes/{pass_id}/send", {}, idem="send"),
        api.post(f"/v1/passes/{pass_id}/redemptions", {"location": LOCATION}, idem="redeem"),
        api.post(f"/v1/passes/{pass_id}/download-links", idem="link"),
        api.patch(f"/v1/passes/{pass_id}", {"fieldValues": 7}, idem="bad-update"),
        api.post("/v1/passes", {**body, "templateId": "tmpl_missing"}, idem="bad-issue"),
        api.post("/v1/messages", {"header": f"Hi {NAME}", "body": "Welcome.",
                                  "audience": {"passIds": [pass_id]}}, idem="message"),
        api.delete(f"/v1/passes/{pass_id}", idem="void"),
        api.post(f"/v1/passes/{pass_id}/erase", idem="erase"),
    ]
    assert [call.status_code for call in calls] == [200, 202, 201, 201, 400, 404, 202, 200, 200]
    assert _stored_passes(app) == {
        "template": None, "issue": pass_id, "update": pass_id, "send": pass_id,
        "redeem": pass_id, "link": pass_id, "bad-update": None, "bad-issue": None,
        "message": None, "void": pass_id, "erase": pass_id}


def test_an_erasure_opens_the_answers_about_its_pass_and_about_none(
        app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another pass's answers hold only that pass's data: they are not opened (a million
    issues a day are a million answers). Those about no one pass are: a message to the pass by
    ID names its holder, and loses the name."""
    from webapp.db import idempotency

    template = _template(api)
    other_body = {"templateId": template["id"], "barcodeValue": "OTHER-1",
                  "fieldValues": {"member": "Someone Else"}}
    other = api.post("/v1/passes", other_body, idem="other")
    pass_id = _issue(api, template)
    named = api.post("/v1/messages", {"header": f"Hi {NAME}", "body": "Welcome.",
                                      "audience": {"passIds": [pass_id]}}, idem="message")
    assert (other.status_code, named.status_code) == (201, 202)
    opened: list[str] = []
    real = idempotency._open

    def open_answer(stored: str | None) -> str:
        body = real(stored)
        opened.append(json.loads(body).get("id", "") if body else "")
        return body

    monkeypatch.setattr(idempotency, "_open", open_answer)
    assert api.post(f"/v1/passes/{pass_id}/erase", idem="erase").status_code == 200
    message_id = named.get_json()["id"]
    assert sorted(opened) == sorted([template["id"], pass_id, message_id])
    monkeypatch.undo()
    replayed = api.post("/v1/messages", {"header": f"Hi {NAME}", "body": "Welcome.",
                                         "audience": {"passIds": [pass_id]}}, idem="message")
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert NAME not in replayed.get_data(as_text=True)
    assert api.post("/v1/passes", other_body, idem="other").get_json() == other.get_json()


def test_another_holder_s_bulk_item_keeps_a_value_the_erased_pass_shares(api: Api) -> None:
    """A pass without an externalId is erased: the scope's bulk items without one are another
    holder's, and keep what they were sent, even a value the erased pass shares."""
    template = _template(api)
    pass_id = _issue(api, template, fieldValues={"member": NAME, "level": LEVEL})
    item = {"holderName": "Someone Else", "barcodeValue": "OTHER-1",
            "fieldValues": {"member": "Someone Else", "level": LEVEL}}
    job = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                     "items": [item]}).get_json()
    assert api.post(f"/v1/passes/{pass_id}/erase").status_code == 200
    [result] = api.get(f"/v1/bulk-jobs/{job['id']}/results").get_json()["data"]
    assert result["status"] == "succeeded"
    other = api.get(f"/v1/passes/{result['passId']}").get_json()
    assert other["fieldValues"] == {"member": "Someone Else", "level": LEVEL}
    from webapp.extensions import db
    from webapp.models import BulkJobItem

    with api.client.application.app_context():
        [given] = db.session.scalars(select(BulkJobItem.input))
    assert given["fieldValues"] == {"member": "Someone Else", "level": LEVEL}


def test_the_holder_s_failed_bulk_item_is_erased_and_another_s_kept(api: Api) -> None:
    """An item that failed names no pass but holds what was sent for the holder: the erasure
    cuts the holder's values out of it; another holder's failed item is left as it was."""
    from webapp.extensions import db
    from webapp.models import BulkJobItem

    template = _template(api)
    too_long = "B" * 5000
    items = [{"holderName": NAME, "holderEmail": EMAIL, "barcodeValue": too_long,
              "fieldValues": {"member": NAME}},
             {"holderName": "Someone Else", "barcodeValue": too_long,
              "fieldValues": {"member": "Someone Else"}}]
    job = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                     "items": items}).get_json()
    results = api.get(f"/v1/bulk-jobs/{job['id']}/results").get_json()["data"]
    assert [r["status"] for r in results] == ["failed", "failed"]
    pass_id = _issue(api, template, holderName=NAME, holderEmail=EMAIL)
    assert api.post(f"/v1/passes/{pass_id}/erase").status_code == 200
    with api.client.application.app_context():
        mine, other = db.session.scalars(select(BulkJobItem.input).order_by(BulkJobItem.index))
    assert NAME not in json.dumps(mine) and EMAIL not in json.dumps(mine)
    assert other == items[1]


def test_an_external_id_is_erased_in_its_template_s_jobs_only(api: Api) -> None:
    """An externalId is unique per template: another template's pass with the same one is
    another holder's, and its bulk item keeps it."""
    from webapp.extensions import db
    from webapp.models import BulkJobItem

    pass_id = _bulk_issue(api, _template(api))
    other = {"externalId": EXTERNAL_ID, "holderName": "Someone Else", "barcodeValue": "OTHER-1",
             "fieldValues": {"member": "Someone Else"}}
    job = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": _template(api)["id"],
                                     "items": [other]}).get_json()
    [result] = api.get(f"/v1/bulk-jobs/{job['id']}/results").get_json()["data"]
    assert result["status"] == "succeeded"
    assert api.post(f"/v1/passes/{pass_id}/erase").status_code == 200
    with api.client.application.app_context():
        kept = db.session.execute(select(BulkJobItem.external_id, BulkJobItem.input).where(
            BulkJobItem.job_id == job["id"])).one()
    assert tuple(kept) == (EXTERNAL_ID, other)
