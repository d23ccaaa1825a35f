"""The pass page's "Erase holder data" (issue 33): a typed confirmation, CSRF, once per
form; the API's erasure behind it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_data, text

NAME = "Zephyrine Quillfeather"


@pytest.fixture
def pass_id(api: Api) -> str:
    template = api.post("/v1/templates", {"name": "Members", "type": "generic",
                                          "definition": definition()}).get_json()
    response = api.post("/v1/passes", {"templateId": template["id"], "holderName": NAME,
                                       "fieldValues": {"member": NAME}})
    assert response.status_code == 201
    return str(response.get_json()["id"])


def _form(dash: Dash, pass_id: str) -> dict[str, Any]:
    page = text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    assert "Erase holder data</button>" in page
    return form_data(page, "erase-form")


def test_the_word_must_be_typed(dash: Dash, api: Api, pass_id: str) -> None:
    for typed in ("", "erase it", "DELETE"):
        response = dash.post(f"/dashboard/test/passes/{pass_id}/erase",
                             {**_form(dash, pass_id), "confirm": typed}, htmx=True)
        assert response.status_code == 422
        page = text(response)
        assert page.lstrip().startswith('<section class="card" id="erase-holder">')
        assert "Nothing was erased: type ERASE to confirm." in page
        assert f'name="confirm" value="{typed}"' in page  # what was typed is kept
    shown = api.get(f"/v1/passes/{pass_id}").get_json()
    assert shown["holderName"] == NAME and shown["status"] == "active"


def test_erase_from_the_pass_page(dash: Dash, api: Api, pass_id: str) -> None:
    fields = {**_form(dash, pass_id), "confirm": "erase"}  # any case
    response = dash.post(f"/dashboard/test/passes/{pass_id}/erase", fields)
    assert response.status_code == 303
    shown = api.get(f"/v1/passes/{pass_id}").get_json()
    assert shown["holderName"] is None and shown["fieldValues"] == {}
    assert shown["status"] == "voided" and shown["erasedAt"] is not None
    page = text(dash.get(f"/dashboard/test/passes/{pass_id}"))
    assert "The holder&#39;s data was erased" in page or "The holder's data was erased" in page
    assert NAME not in page and "Erase holder data</button>" not in page
    # The same form posted again gets the first answer: one erasure, one event.
    again = dash.post(f"/dashboard/test/passes/{pass_id}/erase", fields)
    assert again.status_code == 303
    assert len(api.get("/v1/events?type=pass.erased").get_json()["data"]) == 1


def test_csrf_and_other_organizations(dash: Dash, other_dash: Dash, pass_id: str) -> None:
    fields = {**_form(dash, pass_id), "confirm": "ERASE"}
    fields.pop("csrf_token")
    assert dash.post(f"/dashboard/test/passes/{pass_id}/erase", fields,
                     csrf=False).status_code == 400
    assert other_dash.post(f"/dashboard/test/passes/{pass_id}/erase",
                           {"confirm": "ERASE"}).status_code == 404
    assert dash.post(f"/dashboard/live/passes/{pass_id}/erase",
                     {"confirm": "ERASE"}).status_code == 404
    assert NAME in text(dash.get(f"/dashboard/test/passes/{pass_id}"))
