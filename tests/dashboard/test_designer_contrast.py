"""The designer warns of colour pairs below WCAG AA (4.5:1), next to the colour inputs and as
they change, and still saves them."""

from __future__ import annotations

import pytest

from tests.api.factories import definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_data, text
from webapp.dashboard import designer

TEXT_WARNING = ("The text colour on the background has a contrast of 4.47:1; WCAG AA asks for "
                "at least 4.5:1, so some people will not be able to read it.")
LABEL_WARNING = ("The label colour on the background has a contrast of 1.6:1; WCAG AA asks for "
                 "at least 4.5:1, so some people will not be able to read it.")


@pytest.fixture
def template_id(api: Api) -> str:
    response = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                          "definition": definition()})
    return str(response.get_json()["id"])


def _form(dash: Dash, template_id: str) -> dict[str, str]:
    return form_data(text(dash.get(f"/dashboard/test/templates/{template_id}")), "design-form")


def test_warnings_name_the_pair_and_its_ratio() -> None:
    colors = {"background": "#ffffff", "foreground": "#777777", "label": "#cccccc"}
    assert designer.contrast_warnings({"colors": colors}) == [
        {"input": "color-foreground", "message": TEXT_WARNING},
        {"input": "color-label", "message": LABEL_WARNING}]
    colors.update(foreground="#767676", label="#000000")  # 4.54:1 and 21:1 pass
    assert designer.contrast_warnings({"colors": colors}) == []
    assert designer.contrast_warnings({"colors": "#ffffff"}) == []
    assert designer.contrast_warnings({}) == []


def test_the_warnings_follow_the_colour_inputs(dash: Dash, template_id: str) -> None:
    form = _form(dash, template_id)
    assert 'id="contrast-warnings"' in text(dash.get(f"/dashboard/test/templates/{template_id}"))
    url = f"/dashboard/test/templates/{template_id}/contrast"
    form.update({"color-background": "#ffffff", "color-foreground": "#777777",
                 "color-label": "#cccccc", "color-label-on": "on"})
    response = dash.post(url, form, htmx=True, header=True)
    assert response.status_code == 200
    assert text(response) == (f'<p class="field-warning" id="warn-color-foreground">'
                              f'{TEXT_WARNING}</p><p class="field-warning" '
                              f'id="warn-color-label">{LABEL_WARNING}</p>')
    # without its own label colour, the labels are the wallet's business: no label warning
    del form["color-label-on"]
    assert LABEL_WARNING not in text(dash.post(url, form, htmx=True, header=True))
    # a colour that is not one is the validation's to report, never a 500
    form["color-foreground"] = "red"
    response = dash.post(url, form, htmx=True, header=True)
    assert response.status_code == 200
    assert text(response) == ""


def test_a_design_hard_to_read_is_saved_with_the_warning(dash: Dash, api: Api,
                                                         template_id: str) -> None:
    form = _form(dash, template_id)
    form.update({"color-background": "#ffffff", "color-foreground": "#777777"})
    response = dash.post(f"/dashboard/test/templates/{template_id}", form, htmx=True,
                         header=True)
    assert response.status_code == 200
    page = text(response)
    assert "Saved as revision 2." in page
    assert f'<p class="field-warning" id="warn-color-foreground">{TEXT_WARNING}</p>' in page
    saved = api.get(f"/v1/templates/{template_id}").get_json()
    assert saved["definition"]["colors"] == {"background": "#ffffff", "foreground": "#777777"}


def test_another_organizations_template_is_404(other_dash: Dash, template_id: str) -> None:
    response = other_dash.post(f"/dashboard/test/templates/{template_id}/contrast")
    assert response.status_code == 404
