"""The served OpenAPI document tells the truth: every answer of a round through the API (the
operations the clients are tested with, and more, error answers too) validates against the
schema the document gives for that operation and status. The generated clients parse these
answers with types made from the same schemas."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator

from tests.api.factories import gift_card_definition, store_body, template_body
from tests.conftest import Api


class CheckedApi(Api):
    """An `Api` that validates every answer against the document; `checked` counts them."""

    def __init__(self, client: FlaskClient, key: str | None, document: dict[str, Any]):
        super().__init__(client, key)
        self.document, self.checked = document, set[tuple[str, str, int]]()
        self.routes = [(re.compile("^" + re.sub(r"{[^}]+}", "[^/]+", path) + "$"), path)
                       for path in document["paths"]]

    def request(self, method: str, path: str, json: Any = None, **kw: Any) -> Any:
        response = super().request(method, path, json, **kw)
        template = next(t for pattern, t in self.routes if pattern.match(path.split("?")[0]))
        operation = self.document["paths"][template][method.lower()]
        documented = operation["responses"].get(str(response.status_code))
        assert documented is not None, (method, template, response.status_code)
        if response.status_code != 204:
            schema = documented["content"]["application/json"]["schema"]
            Draft202012Validator({**schema, "components": self.document["components"]}
                                 ).validate(response.get_json())
        self.checked.add((method, template, response.status_code))
        return response


@pytest.fixture
def checked(client: FlaskClient, org: dict[str, Any]) -> CheckedApi:
    document = client.get("/v1/openapi.json").get_json()
    return CheckedApi(client, org["keys"]["test"], document)


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.get_json()
    return dict(response.get_json())


def test_a_round_through_the_api_matches_the_document(checked: CheckedApi, png: Any) -> None:
    api = checked
    ok(api.get("/v1/me"))
    asset = ok(api.post("/v1/assets", {"slot": "icon", "data": png()}), 201)
    ok(api.get(f"/v1/assets/{asset['id']}"))
    template = ok(api.post("/v1/templates", template_body(images={"icon": asset["id"]})), 201)
    ok(api.get(f"/v1/templates/{template['id']}"))
    ok(api.get("/v1/templates?limit=1"))
    ok(api.patch(f"/v1/templates/{template['id']}",
                 {"expectedRevision": 1, "name": "Renamed"}))
    copy = ok(api.post(f"/v1/templates/{template['id']}/duplicate", {"name": "Copy"}), 201)
    ok(api.delete(f"/v1/templates/{copy['id']}"))
    ok(api.post(f"/v1/templates/{copy['id']}/unarchive"))
    hook = ok(api.post("/v1/webhook-endpoints", {"url": "https://hooks.example.com/x"}), 201)
    ok(api.get("/v1/webhook-endpoints"))
    ok(api.patch(f"/v1/webhook-endpoints/{hook['id']}", {"description": "ours"}))
    item = ok(api.post("/v1/passes", {"templateId": template["id"], "holderName": "Ada",
                                      "fieldValues": {"member": "Ada"}}), 201)
    ok(api.get(f"/v1/passes/{item['id']}"))
    ok(api.get("/v1/passes?limit=1"))
    updated = ok(api.patch(f"/v1/passes/{item['id']}", {"fieldValues": {"member": "Grace"}}))
    ok(api.get(f"/v1/pass-updates/{updated['update']['id']}"))
    ok(api.get(f"/v1/passes/{item['id']}/updates"))
    link = ok(api.post(f"/v1/passes/{item['id']}/download-links", {}), 201)
    ok(api.get(f"/v1/passes/{item['id']}/download-links"))
    assert api.delete(f"/v1/download-links/{link['id']}").status_code == 204
    ok(api.get("/v1/events?limit=5"))
    ok(api.get(f"/v1/webhook-endpoints/{hook['id']}/deliveries"))
    ok(api.get(f"/v1/passes/{item['id']}/export"))
    ok(api.delete(f"/v1/passes/{item['id']}"))
    ok(api.delete(f"/v1/webhook-endpoints/{hook['id']}"))
    assert len(api.checked) == 27  # distinct (method, operation, status)


def test_balances_and_error_answers_match_the_document(checked: CheckedApi) -> None:
    api = checked
    card = ok(api.post("/v1/templates", store_body(gift_card_definition())), 201)
    item = ok(api.post("/v1/passes", {"templateId": card["id"], "balance": 500}), 201)
    ok(api.post(f"/v1/passes/{item['id']}/balance-transactions", {"amount": -200}), 201)
    ok(api.get(f"/v1/passes/{item['id']}/balance-transactions"))
    refusals = [
        (api.post(f"/v1/passes/{item['id']}/balance-transactions", {"amount": -301}), 409),
        (api.get("/v1/passes/pass_nope"), 404),
        (api.post("/v1/passes", {"templateId": card["id"], "colour": "red"}), 400),
        (api.patch(f"/v1/templates/{card['id']}", {"expectedRevision": 7}), 409),
        (api.delete(f"/v1/passes/{item['id']}"), 200),
        (api.delete(f"/v1/passes/{item['id']}"), 409),
        (Api(api.client, "svc_test_nope").get("/v1/me"), 401),
    ]
    for response, status in refusals:
        assert response.status_code == status, response.get_json()
    ticket = ok(api.post("/v1/templates", template_body(redemption={"mode": "single"})), 201)
    entry = ok(api.post("/v1/passes", {"templateId": ticket["id"],
                                       "fieldValues": {"member": "Ada"}}), 201)
    ok(api.post(f"/v1/passes/{entry['id']}/redemptions", {}), 201)
    again = api.post(f"/v1/passes/{entry['id']}/redemptions", {})
    assert again.status_code == 409
    assert again.get_json()["error"]["redemption"]["object"] == "redemption"
    unknown = CheckedApi(api.client, "svc_test_nope", api.document)
    assert unknown.get("/v1/passes").status_code == 401
