"""`pass_schemas.dump_pass` is the Pass schema's dump, written out: held equal here."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from webapp.api import pass_schemas


def _both(app: Flask, org: dict, environment: str, pass_id: str) -> tuple[Any, Any]:
    from webapp.services.context import Context
    from webapp.services.passes import queries

    with app.app_context():
        item = queries.get(Context(org["id"], environment), pass_id)
        return pass_schemas.dump_pass(item), pass_schemas.Pass().dump(item)


def test_the_written_out_dump_equals_the_schema_s(app: Flask, api: Api, org: dict) -> None:
    plain = api.post("/v1/templates", template_body()).get_json()
    apple_only = api.post("/v1/templates", template_body(
        name="Apple only", platforms={"apple": True, "google": False})).get_json()
    issued = [
        api.post("/v1/passes", {"templateId": plain["id"],
                                "fieldValues": {"member": "Ada", "level": 3}}).get_json(),
        api.post("/v1/passes", {"templateId": apple_only["id"], "holderName": "Ada <b>",
                                "holderEmail": "ada@example.com",
                                "fieldValues": {"member": "Grace"}}).get_json(),
    ]
    updated = api.patch(f"/v1/passes/{issued[0]['id']}",
                        {"fieldValues": {"level": None}}).get_json()["pass"]
    voided = api.delete(f"/v1/passes/{issued[1]['id']}").get_json()
    for answer in (updated, voided):
        written, schema = _both(app, org, "test", answer["id"])
        assert list(written.items()) == list(schema.items())  # member order too
        assert written == answer  # and what the API answered
    assert voided["voidedAt"] is not None and updated["fieldValues"] == {"member": "Ada"}
