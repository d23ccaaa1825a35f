"""The designer's Check-in section: none, single (with voiding), multiple (with an optional
maximum); what the preview shows a holder after a check-in."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import template_body
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_fields, text


@pytest.fixture
def template_id(api: Api) -> str:
    return str(api.post("/v1/templates", template_body()).get_json()["id"])


def _save(dash: Dash, template_id: str, **changes: str) -> Any:
    form = form_fields(text(dash.get(f"/dashboard/test/templates/{template_id}")),
                       "design-form")
    for name, value in changes.items():
        form.setlist(name, [value] if value else [])
    return dash.post(f"/dashboard/test/templates/{template_id}", form, htmx=True, header=True)


@pytest.mark.parametrize(("changes", "expected"), [
    ({"redemption-mode": "single"}, {"mode": "single"}),
    ({"redemption-mode": "single", "redemption-void": "on"},
     {"mode": "single", "voidOnRedemption": True}),
    ({"redemption-mode": "multiple"}, {"mode": "multiple"}),
    ({"redemption-mode": "multiple", "redemption-maxUses": " 12 "},
     {"mode": "multiple", "maxUses": 12}),
    # An option of another mode is not written.
    ({"redemption-mode": "multiple", "redemption-void": "on"}, {"mode": "multiple"}),
    ({"redemption-mode": "single", "redemption-maxUses": "5"}, {"mode": "single"}),
])
def test_check_in_is_switched_on_in_the_designer(dash: Dash, api: Api, template_id: str,
                                                 changes: dict[str, str],
                                                 expected: dict[str, Any]) -> None:
    assert _save(dash, template_id, **changes).status_code == 200
    got = api.get(f"/v1/templates/{template_id}").get_json()
    assert got["revision"] == 2 and got["definition"]["redemption"] == expected
    form = form_fields(text(dash.get(f"/dashboard/test/templates/{template_id}")),
                       "design-form")
    assert form["redemption-mode"] == expected["mode"]


def test_check_in_is_switched_off_again(dash: Dash, api: Api) -> None:
    template_id = api.post("/v1/templates", template_body(
        redemption={"mode": "multiple", "maxUses": 3})).get_json()["id"]
    form = form_fields(text(dash.get(f"/dashboard/test/templates/{template_id}")),
                       "design-form")
    assert form["redemption-maxUses"] == "3"
    assert _save(dash, template_id, **{"redemption-mode": "none"}).status_code == 200
    assert "redemption" not in api.get(f"/v1/templates/{template_id}").get_json()["definition"]


@pytest.mark.parametrize(("maximum", "message"), [
    ("0", "Check-in&#39;s maximum must be between 1 and 100,000."),
    ("1000001", "Check-in&#39;s maximum must be between 1 and 100,000."),
    ("ten", "Check-in&#39;s maximum must be an integer, not a string."),
])
def test_a_bad_maximum_is_named_next_to_its_input(dash: Dash, api: Api, template_id: str,
                                                  maximum: str, message: str) -> None:
    response = _save(dash, template_id, **{"redemption-mode": "multiple",
                                           "redemption-maxUses": maximum})
    assert response.status_code == 422
    page = text(response)
    assert f'<p class="field-error" id="err-redemption-maxUses">{message}</p>' in page
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 1


def test_an_unknown_mode_is_refused(dash: Dash, api: Api, template_id: str) -> None:
    response = _save(dash, template_id, **{"redemption-mode": "twice"})
    assert response.status_code == 422
    assert 'id="err-redemption-mode"' in text(response)


def test_the_preview_shows_the_checked_in_line(dash: Dash, template_id: str) -> None:
    form = form_fields(text(dash.get(f"/dashboard/test/templates/{template_id}")),
                       "design-form")
    preview = f"/dashboard/test/templates/{template_id}/preview"
    assert "Checked in" not in text(dash.post(preview, form, htmx=True, header=True))
    form.setlist("redemption-mode", ["single"])
    card = text(dash.post(preview, form, htmx=True, header=True))
    assert "<dt>Checked in</dt><dd>Tue, Jun 1, 2027, 7:42\u202fPM</dd>" in card
