"""The dashboard shows a pass past its expiry (its own date, else its template's) as
expired, in the list and on its page, with its own dates and images."""

from __future__ import annotations

import uuid
from typing import Any

from tests.api.factories import definition
from tests.conftest import Api
from tests.dashboard.conftest import Dash, text

PAST = "2026-01-01T00:00:00Z"
FUTURE = "2030-01-01T00:00:00+01:00"
EXPIRED = ('<span class="badge amber" title="Its expiry date has passed: wallets show it '
           'as expired">Expired</span>')


def issue(api: Api, template_expiry: str | None = None, **body: Any) -> dict[str, Any]:
    changes = {"expiresAt": template_expiry} if template_expiry else {}
    template = api.post("/v1/templates", {"name": "Gym", "type": "generic",
                                          "definition": definition(**changes)}).get_json()
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"}, **body})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def test_the_list_marks_expired_passes(dash: Dash, api: Api) -> None:
    own = issue(api, holderName="Own Expiry", expiresAt=PAST)
    inherited = issue(api, PAST, holderName="Template Expiry")
    overridden = issue(api, PAST, holderName="Extended", expiresAt=FUTURE)
    page = text(dash.get("/dashboard/test/passes"))
    rows = {name: page[page.index(name):page.index("</tr>", page.index(name))]
            for name in ("Own Expiry", "Template Expiry", "Extended")}
    assert EXPIRED in rows["Own Expiry"] and EXPIRED in rows["Template Expiry"]
    assert EXPIRED not in rows["Extended"] and ">Active</span>" in rows["Extended"]
    assert own["id"] and inherited["id"] and overridden["id"]


def test_the_pass_page_shows_expiry_dates_and_images(dash: Dash, api: Api, png: Any) -> None:
    item = issue(api, PAST, relevantDate=FUTURE)
    page = text(dash.get(f"/dashboard/test/passes/{item['id']}"))
    assert EXPIRED in page
    assert (f'<dt>Expires</dt><dd><time datetime="{PAST}">{PAST}</time> '
            '<span class="muted">(the template&#39;s date)</span></dd>') in page
    assert f'<dt>Relevant date</dt><dd><time datetime="{FUTURE}">{FUTURE}</time></dd>' in page
    assert api.patch(f"/v1/passes/{item['id']}", {"expiresAt": FUTURE}).status_code == 200
    asset = api.post("/v1/assets", {"slot": "thumbnail", "data": png()}).get_json()["id"]
    assert api.request("PUT", f"/v1/passes/{item['id']}/images/thumbnail", {"assetId": asset},
                       headers={"Idempotency-Key": str(uuid.uuid4())}).status_code == 200
    page = text(dash.get(f"/dashboard/test/passes/{item['id']}"))
    assert EXPIRED not in page and '<span class="badge green">Active</span>' in page
    assert "(this pass&#39;s own date)" in page
    assert f"<dt>Own images</dt><dd>Thumbnail: <code>{asset}</code></dd>" in page
    assert "Expires: " in page and "Thumbnail image: " in page  # the update history


def test_a_pass_without_any_date_never_expires(dash: Dash, api: Api) -> None:
    item = issue(api)
    page = text(dash.get(f"/dashboard/test/passes/{item['id']}"))
    assert '<dt>Expires</dt><dd><span class="muted">No expiry date</span></dd>' in page
    assert EXPIRED not in page
