"""A pass update writes the pass once: bulk jobs run it 100,000 times (issue 17's bench)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import event

from tests.api.factories import template_body
from tests.conftest import Api


def test_an_update_writes_the_pass_row_once_and_reads_the_template_once(
        app: Flask, api: Api, org: dict) -> None:
    from webapp.extensions import db
    from webapp.services.context import Context
    from webapp.services.passes import changes

    template = api.post("/v1/templates", template_body()).get_json()
    item = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}}).get_json()
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(" ".join(statement.split()).lower())

    with app.app_context():
        engine = db.engine
        event.listen(engine, "before_cursor_execute", seen)
        try:
            updated = changes.update(Context(org["id"], "test"), item["id"],
                                     {"member": "Bea"}, "notify")
        finally:
            event.remove(engine, "before_cursor_execute", seen)
        assert updated.pass_ not in db.session.dirty
        assert updated.pass_.template_name == template["name"]
        assert updated.pass_.version == 2
    assert len([s for s in statements if s.startswith("update passes ")]) == 1, statements
    assert len([s for s in statements if s.startswith("select templates.")]) == 1, statements
    answer = api.get(f"/v1/passes/{item['id']}").get_json()
    assert (answer["fieldValues"]["member"], answer["templateName"]) == ("Bea", template["name"])
    events = api.get("/v1/events", query_string={"type": "pass.updated"}).get_json()["data"]
    assert events[0]["data"]["object"]["templateName"] == template["name"]
