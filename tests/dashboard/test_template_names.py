"""The dashboard refuses a template name of only spaces, next to the name input, as the API
does (400 `parameter_invalid` naming `name`)."""

from __future__ import annotations

import pytest

from tests.api.factories import definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_data, text

BLANK_NAMES = ["   ", "\u3000"]


@pytest.mark.parametrize("name", BLANK_NAMES)
def test_creating_a_template_named_only_spaces_is_422_next_to_the_name(
        dash: Dash, api: Api, name: str) -> None:
    response = dash.post("/dashboard/test/templates/new", {"name": name, "type": "generic"})
    assert response.status_code == 422
    page = text(response)
    assert '<p class="field-error" id="err-name">' in page
    assert api.get("/v1/templates").get_json()["data"] == []


@pytest.mark.parametrize("name", BLANK_NAMES)
def test_renaming_a_template_to_only_spaces_is_422_next_to_the_name(
        dash: Dash, api: Api, name: str) -> None:
    template_id = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                             "definition": definition()}).get_json()["id"]
    form = form_data(text(dash.get(f"/dashboard/test/templates/{template_id}")), "design-form")
    response = dash.post(f"/dashboard/test/templates/{template_id}", {**form, "name": name},
                         htmx=True, header=True)
    assert response.status_code == 422
    assert 'id="err-name"' in text(response)
    assert api.get(f"/v1/templates/{template_id}").get_json()["name"] == "Gym"
