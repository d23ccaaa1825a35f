"""A template's revision history: what changed between two revisions, and restoring an old
revision as a new one through the same update as any save."""

from __future__ import annotations

import copy
import re
from html import escape
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import definition
from tests.api.test_assets import image_bytes, upload
from tests.conftest import Api
from tests.dashboard.conftest import Dash, text
from webapp.domain import definition as rules


@pytest.fixture
def template_id(api: Api) -> str:
    response = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                          "definition": definition()})
    return response.get_json()["id"]


def _update(api: Api, template_id: str, expected: int, new: dict[str, Any]) -> None:
    response = api.patch(f"/v1/templates/{template_id}", {"expectedRevision": expected,
                                                          "definition": new})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["revision"] == expected + 1


def _second(api: Api, template_id: str) -> dict[str, Any]:
    """Revision 2: a new description, background, label and logo."""
    logo = upload(api, image_bytes(160, 50), slot="logo").get_json()["id"]
    new = definition(description="Gym card", images={"logo": logo})
    new["colors"]["background"] = "#7a1f5c"
    new["config"]["fields"]["primary"][0]["label"] = "Guest"
    _update(api, template_id, 1, new)
    return {"definition": new, "logo": logo}


def _history(dash: Dash, template_id: str, query: str = "") -> Any:
    return dash.get(f"/dashboard/test/templates/{template_id}/revisions{query}")


def _restore(dash: Dash, template_id: str, revision: int | str, expected: str | None,
             **kw: Any) -> Any:
    data = {} if expected is None else {"expected_revision": expected}
    return dash.post(f"/dashboard/test/templates/{template_id}/revisions/{revision}/restore",
                     data, htmx=True, header=True, **kw)


def _changes(page: str) -> list[str]:
    """The rows of the changes table, as text."""
    table = page[page.index('<table class="table diff">'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]
    return [" | ".join(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell)).strip()
                       for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S))
            for row in rows]


def test_the_newest_revision_shows_what_changed_since_the_one_before(
        dash: Dash, api: Api, template_id: str) -> None:
    second = _second(api, template_id)
    page = text(_history(dash, template_id))
    assert "<h2>Changes from revision 1 to revision 2</h2>" in page
    assert _changes(page) == [
        "Text",
        "Description changed | Gym membership | Gym card",
        "Colours",
        "Background changed | #112233 | #7a1f5c",
        "Images",
        "Logo added | — | ",  # (an image: no text)
        "Fields",
        "Guest (member) · Label changed | Member | Guest",
    ]
    # colours drawn as swatches (painted by dashboard.js: no style attributes), images as
    # thumbnails
    assert '<span class="swatch" data-background="#7a1f5c"></span> <code>#7a1f5c</code>' in page
    assert (f'<img class="diff-thumb" src="/assets/{second["logo"]}" '
            'alt="Logo image, revision 2">') in page
    assert "style=" not in page.split("<body", 1)[1]


def test_any_two_revisions_can_be_compared(dash: Dash, api: Api, template_id: str) -> None:
    _second(api, template_id)
    _update(api, template_id, 2, definition(description="Third"))
    page = text(_history(dash, template_id, "?revision=3&compare=2"))
    assert "Changes from revision 2 to revision 3" in page
    assert "Description changed | Gym card | Third" in _changes(page)
    assert "Background changed | #7a1f5c | #112233" in _changes(page)
    page = text(_history(dash, template_id, "?revision=3&compare=1"))
    assert _changes(page) == ["Text", "Description changed | Gym membership | Third"]
    assert '<option value="1" selected>Revision 1</option>' in page
    assert text(_history(dash, template_id, "?revision=1&compare=1")).count(
        "is the first design of this template") == 1
    first = text(_history(dash, template_id, "?revision=1"))
    assert "Revision 1 is the first design of this template" in first
    assert _history(dash, template_id, "?revision=3&compare=9").status_code == 404
    assert "Changes from revision 2 to revision 3" in text(
        _history(dash, template_id, "?revision=3&compare=abc"))


def test_restore_saves_the_old_design_as_a_new_revision(dash: Dash, api: Api,
                                                        template_id: str) -> None:
    original = api.get(f"/v1/templates/{template_id}").get_json()["definition"]
    _second(api, template_id)
    page = text(_history(dash, template_id, "?revision=1"))
    assert 'name="expected_revision" value="2"' in page
    assert "Restore revision 1</button>" in page
    response = _restore(dash, template_id, 1, "2")
    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == f"/dashboard/test/templates/{template_id}/revisions"
    got = api.get(f"/v1/templates/{template_id}").get_json()
    assert got["revision"] == 3 and got["definition"] == original
    page = text(dash.get(response.headers["HX-Redirect"]))
    assert "Revision 1 restored: its design is now revision 3." in page
    assert "Changes from revision 2 to revision 3" in page
    assert "Description changed | Gym card | Gym membership" in _changes(page)
    # the revisions before it are kept as they were
    old = text(_history(dash, template_id, "?revision=2"))
    assert "Description changed | Gym membership | Gym card" in _changes(old)


def test_without_javascript_the_form_posts_and_redirects(dash: Dash, api: Api,
                                                         template_id: str) -> None:
    _second(api, template_id)
    response = dash.post(f"/dashboard/test/templates/{template_id}/revisions/1/restore",
                         {"expected_revision": "2"})
    assert response.status_code == 303
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 3


def test_restoring_the_current_design_makes_no_revision(dash: Dash, api: Api,
                                                        template_id: str) -> None:
    _second(api, template_id)
    _restore(dash, template_id, 1, "2")
    response = _restore(dash, template_id, 1, "3")  # revision 3 is revision 1's design
    assert response.status_code == 200
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 3
    page = text(dash.get(response.headers["HX-Redirect"]))
    assert "Revision 1 is the current design already; nothing was saved." in page


@pytest.mark.parametrize("expected", ["1", "", None, "x"])
def test_a_stale_page_is_refused(dash: Dash, api: Api, template_id: str,
                                 expected: str | None) -> None:
    _second(api, template_id)
    response = _restore(dash, template_id, 1, expected)
    assert response.status_code == 409
    body = text(response)
    assert body.lstrip().startswith('<div id="history">')
    assert ("The template was saved again while you were looking. Check what changed, then "
            "restore.") in body
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 2


def test_an_archived_template_cannot_be_restored(dash: Dash, api: Api,
                                                 template_id: str) -> None:
    _second(api, template_id)
    assert api.delete(f"/v1/templates/{template_id}").status_code == 200
    page = text(_history(dash, template_id, "?revision=1"))
    assert "Restore" not in page
    assert "Archived templates cannot be changed; unarchive it to restore a revision." in page
    response = _restore(dash, template_id, 1, "2")
    assert response.status_code == 409
    assert "Archived templates cannot be changed; unarchive it first." in text(response)
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 2


def test_a_design_that_fails_todays_checks_is_refused(app: Flask, dash: Dash, api: Api,
                                                      template_id: str) -> None:
    _second(api, template_id)
    with app.app_context():  # revision 1 as rules that have since tightened would see it
        from sqlalchemy import update

        from webapp.db.transaction import transaction
        from webapp.models import TemplateRevision
        from webapp.services.templates import revisions

        old = copy.deepcopy(definition())
        old["colors"]["background"] = "navy"
        with transaction() as session:
            session.execute(update(TemplateRevision).where(
                TemplateRevision.template_id == template_id, TemplateRevision.revision == 1
            ).values(definition=old))
        revisions._REVISIONS.clear()
    [issue] = rules.validate(old, "generic")
    response = _restore(dash, template_id, 1, "2")
    assert response.status_code == 422
    body = text(response)
    assert "Revision 1 cannot be restored: it does not pass today&#39;s checks." in body
    assert f"<li>{escape(issue['message'])}</li>" in body
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 2


def test_unknown_revisions_other_organizations_and_csrf(dash: Dash, other_dash: Dash,
                                                        api: Api, template_id: str) -> None:
    _second(api, template_id)
    assert _restore(dash, template_id, 9, "2").status_code == 404
    assert _restore(other_dash, template_id, 1, "2").status_code == 404
    assert _restore(dash, "tmpl_unknown", 1, "2").status_code == 404
    assert dash.post(f"/dashboard/test/templates/{template_id}/revisions/1/restore",
                     {"expected_revision": "2"}, csrf=False).status_code == 400
    assert dash.post(f"/dashboard/test/templates/{template_id}/revisions/abc/restore",
                     {"expected_revision": "2"}).status_code == 404
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 2


@pytest.mark.parametrize(("query", "status"), [
    ("?revision=99999999999999999999999", 404), ("?compare=99999999999999999999999", 404),
    ("?revision=%C2%B2", 200)])  # a superscript two is a digit to str.isdigit
def test_any_number_in_the_address_is_an_answer_not_an_error(dash: Dash, api: Api,
                                                             template_id: str, query: str,
                                                             status: int) -> None:
    _second(api, template_id)
    assert _history(dash, template_id, query).status_code == status


def test_a_revision_number_out_of_range_is_not_found(dash: Dash, api: Api,
                                                     template_id: str) -> None:
    _second(api, template_id)
    huge = "99999999999999999999999"
    assert _restore(dash, template_id, huge, huge).status_code == 404
    assert _restore(dash, template_id, 1, huge).status_code == 409
    assert api.get(f"/v1/templates/{template_id}").get_json()["revision"] == 2
