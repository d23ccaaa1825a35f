"""Cursor pagination, on GET /v1/templates (spec: Pagination; decisions.md section 3)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.api.factories import definition, template_body
from tests.conftest import Api, assert_error


def make_templates(app: Flask, org_id: str, count: int, kind: str = "generic") -> list[str]:
    """`count` templates made through the service, oldest first; returns their IDs."""
    from webapp.services.context import Context
    from webapp.services.templates import revisions

    ctx = Context(organization_id=org_id, environment="test")
    type_ = "generic" if kind == "generic" else "event_ticket"
    with app.app_context():
        return [revisions.create(ctx, f"Template {i}", type_, definition(kind)).id
                for i in range(count)]


def archive(app: Flask, org_id: str, template_id: str) -> None:
    from webapp.services.context import Context
    from webapp.services.templates import revisions

    with app.app_context():
        revisions.set_archived(Context(organization_id=org_id, environment="test"),
                               template_id, True)


def walk(api: Api, query: str = "", limit: int | None = None) -> list[dict[str, Any]]:
    """Every page of the list, checking the envelope of each."""
    pages: list[dict[str, Any]] = []
    cursor = None
    while True:
        params = [p for p in (query, f"limit={limit}" if limit else "",
                              f"cursor={cursor}" if cursor else "") if p]
        response = api.get("/v1/templates" + ("?" + "&".join(params) if params else ""))
        assert response.status_code == 200, response.get_data(as_text=True)
        page = response.get_json()
        assert list(page) == ["object", "data", "hasMore", "nextCursor"]
        assert page["object"] == "list"
        pages.append(page)
        if not page["hasMore"]:
            assert page["nextCursor"] is None
            return pages
        assert page["nextCursor"] == page["data"][-1]["id"]
        cursor = page["nextCursor"]
        assert len(pages) < 100, "the walk does not end"


def test_empty_list(api: Api) -> None:
    response = api.get("/v1/templates")
    assert response.status_code == 200
    assert response.get_json() == {"object": "list", "data": [], "hasMore": False,
                                   "nextCursor": None}


def test_default_limit_is_25(app, api: Api, org: dict) -> None:
    created = make_templates(app, org["id"], 30)
    page = api.get("/v1/templates").get_json()
    assert [t["id"] for t in page["data"]] == created[::-1][:25]
    assert page["hasMore"] is True
    assert page["nextCursor"] == created[5]


def test_exactly_a_full_page_has_no_more(app, api: Api, org: dict) -> None:
    created = make_templates(app, org["id"], 25)
    page = api.get("/v1/templates").get_json()
    assert [t["id"] for t in page["data"]] == created[::-1]
    assert page["hasMore"] is False and page["nextCursor"] is None


@pytest.mark.parametrize("limit", [1, 2, 59, 60, 100])
def test_limits_in_range(app, api: Api, org: dict, limit: int) -> None:
    created = make_templates(app, org["id"], 60)
    page = api.get(f"/v1/templates?limit={limit}").get_json()
    assert [t["id"] for t in page["data"]] == created[::-1][:limit]
    assert page["hasMore"] is (limit < 60)
    assert page["nextCursor"] == (created[::-1][limit - 1] if limit < 60 else None)


@pytest.mark.parametrize("limit", ["0", "101", "-1", "abc", "1.5", "", "1e2", " 5", "5 ", "+5",
                                   "0x10", "1000000000000", "true", "null"])
def test_limits_out_of_range_or_not_integers(api: Api, limit: str) -> None:
    response = api.get("/v1/templates", query_string={"limit": limit})
    assert_error(response, 400, "invalid_request_error", "parameter_invalid", "limit")


@pytest.mark.parametrize("limit", ["\u00b2", "\u0663", "\uff11"])
def test_limit_must_be_ascii_digits(api: Api, limit: str) -> None:
    response = api.get("/v1/templates", query_string={"limit": limit})
    assert_error(response, 400, "invalid_request_error", "parameter_invalid", "limit")


@pytest.mark.parametrize("cursor", ["", "x" * 65])
def test_cursor_that_cannot_be_an_id_is_400(api: Api, cursor: str) -> None:
    response = api.get("/v1/templates", query_string={"cursor": cursor})
    assert_error(response, 400, "invalid_request_error", param="cursor")


def test_limit_given_twice_is_400(api: Api) -> None:
    assert_error(api.get("/v1/templates?limit=1&limit=2"), 400, "invalid_request_error",
                 param="limit")


@pytest.mark.parametrize("limit", [1, 7, 25, 59, 60, 100])
def test_walk_visits_every_item_once_newest_first(app, api: Api, org: dict, limit: int) -> None:
    created = make_templates(app, org["id"], 60)
    pages = walk(api, limit=limit)
    seen = [t["id"] for page in pages for t in page["data"]]
    assert seen == created[::-1]
    assert len(pages) == -(-60 // limit)
    assert all(len(page["data"]) == limit for page in pages[:-1])
    for page in pages:
        for item in page["data"]:
            assert "definition" not in item and item["requiredFields"] == []


def test_walk_with_default_limit(app, api: Api, org: dict) -> None:
    created = make_templates(app, org["id"], 60)
    pages = walk(api)
    assert [len(p["data"]) for p in pages] == [25, 25, 10]
    assert [t["id"] for page in pages for t in page["data"]] == created[::-1]


def test_walk_with_filters(app, api: Api, org: dict) -> None:
    generic = make_templates(app, org["id"], 12)
    events = make_templates(app, org["id"], 9, kind="event")
    archived = generic[::3]
    for template_id in archived:
        archive(app, org["id"], template_id)
    active_generic = [t for t in generic if t not in archived]

    def ids(pages: list[dict[str, Any]]) -> list[str]:
        return [t["id"] for page in pages for t in page["data"]]

    assert ids(walk(api, "type=generic", limit=2)) == active_generic[::-1]
    assert ids(walk(api, "type=event_ticket", limit=4)) == events[::-1]
    assert ids(walk(api, "archived=true", limit=3)) == archived[::-1]
    assert ids(walk(api, limit=5)) == (active_generic + events)[::-1]


def test_walk_through_the_api_sees_new_items_only_on_a_fresh_walk(api: Api) -> None:
    first = [api.post("/v1/templates", json=template_body(name=f"T{i}")).get_json()["id"]
             for i in range(5)]
    page = api.get("/v1/templates?limit=2").get_json()
    newer = api.post("/v1/templates", json=template_body(name="Newer")).get_json()["id"]
    rest = api.get(f"/v1/templates?limit=10&cursor={page['nextCursor']}").get_json()
    # A new item sorts before the cursor: the walk in progress neither repeats nor skips.
    assert [t["id"] for t in page["data"] + rest["data"]] == first[::-1]
    assert api.get("/v1/templates?limit=1").get_json()["data"][0]["id"] == newer


@pytest.mark.parametrize("cursor", ["tmpl_00000000000000000000000000", "tmpl_doesnotexist",
                                    "nothing", "pass_01jd7k2m3q0000000000000000"])
def test_cursor_naming_nothing_is_400(app, api: Api, org: dict, cursor: str) -> None:
    make_templates(app, org["id"], 3)
    response = api.get("/v1/templates", query_string={"cursor": cursor})
    assert_error(response, 400, "invalid_request_error", "invalid_cursor", "cursor")


def test_cursor_of_another_organization_is_400(app, api: Api, org: dict, other_org: dict
                                                ) -> None:
    make_templates(app, org["id"], 3)
    foreign = make_templates(app, other_org["id"], 3)
    response = api.get("/v1/templates", query_string={"cursor": foreign[1]})
    assert_error(response, 400, "invalid_request_error", "invalid_cursor", "cursor")


def test_cursor_of_another_kind_of_resource_is_400(app, api: Api, org: dict, png) -> None:
    make_templates(app, org["id"], 3)
    asset = api.post("/v1/assets", json={"slot": "icon", "data": png()}).get_json()
    response = api.get("/v1/templates", query_string={"cursor": asset["id"]})
    assert_error(response, 400, "invalid_request_error", "invalid_cursor", "cursor")


def test_archived_template_works_as_cursor_for_the_active_list(app, api: Api, org: dict
                                                               ) -> None:
    # The cursor's scope is the organization, not the list's filters (db/pagination.py), so an
    # item that left the list between two pages still continues the walk.
    created = make_templates(app, org["id"], 6)
    page = api.get("/v1/templates?limit=2").get_json()
    assert page["nextCursor"] == created[4]
    archive(app, org["id"], created[4])
    rest = api.get(f"/v1/templates?cursor={page['nextCursor']}").get_json()
    assert [t["id"] for t in rest["data"]] == created[3::-1]
    assert rest["hasMore"] is False and rest["nextCursor"] is None

    # An archived template that was never on the page works too, and so does an event ticket
    # as cursor for the generic list.
    archive(app, org["id"], created[1])
    rest = api.get(f"/v1/templates?cursor={created[1]}").get_json()
    assert [t["id"] for t in rest["data"]] == [created[0]]
    event = make_templates(app, org["id"], 1, kind="event")[0]
    rest = api.get(f"/v1/templates?type=generic&cursor={event}").get_json()
    assert [t["id"] for t in rest["data"]] == [created[5], created[3], created[2], created[0]]


def test_cursor_of_the_oldest_item_gives_an_empty_last_page(app, api: Api, org: dict) -> None:
    created = make_templates(app, org["id"], 3)
    page = api.get(f"/v1/templates?cursor={created[0]}").get_json()
    assert page == {"object": "list", "data": [], "hasMore": False, "nextCursor": None}


def test_test_and_live_keys_page_the_same_templates(app, api: Api, live_api: Api, org: dict
                                                    ) -> None:
    created = make_templates(app, org["id"], 7)
    assert [t["id"] for p in walk(live_api, limit=3) for t in p["data"]] == created[::-1]
    # A cursor from one environment's walk works in the other's (templates are shared).
    cursor = api.get("/v1/templates?limit=3").get_json()["nextCursor"]
    rest = live_api.get(f"/v1/templates?cursor={cursor}").get_json()
    assert [t["id"] for t in rest["data"]] == created[3::-1]


def test_other_organizations_items_never_appear(app, api: Api, org: dict, other_org: dict
                                                ) -> None:
    mine = make_templates(app, org["id"], 4)
    make_templates(app, other_org["id"], 4)
    assert [t["id"] for p in walk(api, limit=3) for t in p["data"]] == mine[::-1]
