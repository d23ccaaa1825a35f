"""`events.pass_id`: the pass an event is about, which a pass's export and erasure read."""

from __future__ import annotations

from typing import Any

import pytest

from webapp.services.webhooks.events import pass_of


@pytest.mark.parametrize(("data", "expected"), [
    ({"object": {"object": "pass", "id": "pass_1"}, "passUpdateId": "pup_1"}, "pass_1"),
    ({"object": {"object": "pass_update", "id": "pup_1", "passId": "pass_1"}}, "pass_1"),
    ({"object": {"object": "email", "id": "pem_1", "passId": "pass_1"}}, "pass_1"),
    ({"object": {"object": "bulk_job", "id": "bjob_1"}}, None),
    ({"object": {"object": "message", "id": "msg_1", "audience": {"search": "pass_1"}}},
     None),
    ({"object": {"object": "webhook_endpoint", "id": "we_1"}}, None),
    ({"object": {"object": "pass", "id": 7}}, None),
    ({"object": "pass_1"}, None),
    ({}, None),
])
def test_an_event_is_about_its_objects_pass(data: dict[str, Any], expected: str | None
                                            ) -> None:
    assert pass_of(data) == expected


def test_every_event_recorded_names_its_pass(app, api) -> None:
    """What `emit` writes for a pass's life: each event about the pass carries its ID."""
    from sqlalchemy import select

    from tests.api.factories import template_body
    from webapp.extensions import db
    from webapp.models import Event

    template = api.post("/v1/templates", template_body()).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}}).get_json()
    assert api.patch(f"/v1/passes/{item['id']}",
                     {"fieldValues": {"member": "Bo"}}).status_code == 200
    assert api.delete(f"/v1/passes/{item['id']}").status_code == 200
    with app.app_context():
        rows = db.session.execute(select(Event.type, Event.pass_id).order_by(Event.id)).all()
    assert [(t, p) for t, p in rows if t != "pass_update.delivered"] == [
        ("pass.created", item["id"]), ("pass.updated", item["id"]),
        ("pass.voided", item["id"])]
    assert {p for t, p in rows if t == "pass_update.delivered"} <= {item["id"]}


def test_an_event_that_names_no_pass_but_mentions_it_is_still_its_own(app, api) -> None:
    """A node still on the code before migration 0025 writes events without `pass_id`; a
    message sent to passes by ID names many. The pass's export shows them and its erasure
    scrubs them."""
    from sqlalchemy import insert, select

    from tests.api.factories import template_body
    from webapp import ids
    from webapp.db.transaction import transaction
    from webapp.models import Event

    template = api.post("/v1/templates", template_body()).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"], "holderName": "Wilhelmina",
                                   "fieldValues": {"member": "Ada"}}).get_json()
    me = api.get("/v1/me").get_json()
    old_node = {"object": {k: item[k] for k in ("object", "id", "holderName")}}
    with app.app_context(), transaction() as session:
        session.execute(insert(Event).values(
            id=ids.new_id("evt"), organization_id=me["organizationId"], environment="test",
            type="pass.updated", data=old_node, pass_id=None))
    exported = api.get(f"/v1/passes/{item['id']}/export").get_json()
    assert [e["data"] for e in exported["events"] if e["type"] == "pass.updated"] == [old_node]
    assert api.post(f"/v1/passes/{item['id']}/erase", {}).status_code == 200
    with app.app_context():
        from webapp.extensions import db

        data = db.session.scalars(select(Event.data).where(
            Event.type == "pass.updated", Event.pass_id.is_(None))).one()
    assert data == {"object": {"object": "pass", "id": item["id"], "holderName": None}}
