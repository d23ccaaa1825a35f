"""Pass search through SQLite's trigram index (issue 34): the same passes in the same order
as the plain LIKE gave, for every shape of term; the index kept in step with every write.

Three ways answer each search and must agree: the trigram index (even for common terms),
the plain LIKE (what every search was before the index), and a model in Python (the term
folded, a substring of the folded text, newest first). On PostgreSQL the first two are one
(its trigram GIN index is unchanged), so the lane checks the model.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import delete, text, update

from tests.api.factories import template_body
from tests.conftest import Api
from webapp.db.transaction import transaction
from webapp.domain import search
from webapp.services.passes import queries

NAMES = [
    "Jürgen Müller", "Hans Muller", "Zoë Saldaña", "Anna Straße", "Łukasz z Łódź",
    "Søren Kjær", "Siobhán O\u2019Brien", "Grace Hopper", "Grace Hopperson", "Ada Lovelace",
    "Ada Lovelaceson", "Alan Turing", 'Dwayne "The Rock" Johnson', "100% Pure_Joy",
    "back\\slash", "Ελένη Παπαδοπούλου", "김민준", "がっこう たろう", "Ada", "Al",
]
TERMS = [
    "müller", "MULLER", "Muller", "jürgen müller", "hans müller", "zoe", "SALDAÑA", "strasse",
    "STRAẞE", "łódź", "lodz", "kjaer", "o'brien", "O\u2019BRIEN", "grace hopper", "hopper",
    "hoppers", "ada", "AdA", "lovelace", "example", "example.com", "@example.com",
    "grace.hopper@example.com", "ada.lovelace@", "ada@example.com", '"the rock"', '"',
    "100%", "%", "_", "pure_joy", "\\", "back\\sl", "ελενη", "παπα", "김민", "김민준",
    "がっこう", "a", "ad", "al", "zz", "zzz", "no such holder", "  ada  ", "x" * 200,
]


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    response = api.post("/v1/templates", template_body())
    assert response.status_code == 201
    return response.get_json()


def issue(api: Api, template: dict[str, Any], name: str, email: str | None = None) -> dict:
    body: dict[str, Any] = {"templateId": template["id"], "fieldValues": {"member": "x"},
                            "holderName": name}
    if email:
        body["holderEmail"] = email
    response = api.post("/v1/passes", body)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def pages(api: Api, term: str, limit: int = 3, **filters: str) -> list[str]:
    """Every pass the search finds, page after page with the cursor."""
    found: list[str] = []
    cursor = None
    while True:
        query = {"search": term, "limit": str(limit), **filters}
        if cursor:
            query["cursor"] = cursor
        response = api.get("/v1/passes", query_string=query)
        assert response.status_code == 200, response.get_data(as_text=True)
        body = response.get_json()
        found += [p["id"] for p in body["data"]]
        if not body["hasMore"]:
            return found
        cursor = body["data"][-1]["id"]


def model(passes: list[dict[str, Any]], term: str) -> list[str]:
    """What the search should find: the folded term in the folded text, newest first."""
    folded = search.fold("".join(ch for ch in term if ch.isprintable())).strip()
    return sorted((p["id"] for p in passes
                   if folded in search.search_text(p["holderName"], p["holderEmail"],
                                                   p["shortId"])), reverse=True)


@pytest.fixture
def passes(api: Api, other_api: Api, template: dict[str, Any]) -> list[dict[str, Any]]:
    mine = []
    for n, name in enumerate(NAMES * 2):  # twice: pages of common terms
        local = re.sub(r"\.+", ".", re.sub("[^a-z.]", "", search.fold(name).replace(" ", ".")))
        local = local.strip(".") or f"holder{n}"
        mine.append(issue(api, template, name, f"{local}@example.com" if n % 3 else None))
    # Another organization's passes, the same names: never found.
    theirs = other_api.post("/v1/templates", template_body()).get_json()
    for name in NAMES[:8]:
        issue(other_api, theirs, name, "grace.hopper@example.com")
    return mine


@pytest.mark.parametrize("term", TERMS)
def test_the_index_finds_what_the_like_found_in_the_same_order(
        api: Api, passes: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch,
        term: str) -> None:
    expected = model(passes, term)
    monkeypatch.setattr(queries, "COMMON", 10**9)  # the index, however common the term
    assert pages(api, term) == expected
    monkeypatch.setattr(queries, "COMMON", 0)  # the plain LIKE, as before the index
    assert pages(api, term) == expected
    monkeypatch.setattr(queries, "COMMON", 5)  # the default rule, at this scale
    assert pages(api, term) == expected


def test_search_with_the_other_filters_and_the_dashboards_id_list(
        app: Flask, api: Api, org: dict[str, Any], template: dict[str, Any],
        passes: list[dict[str, Any]]) -> None:
    voided = [p["id"] for p in passes if "Hopper" in (p["holderName"] or "")][:2]
    for pass_id in voided:
        assert api.delete(f"/v1/passes/{pass_id}").status_code == 200
    assert pages(api, "hopper", status="voided") == sorted(voided, reverse=True)
    assert pages(api, "hopper", status="active") == [
        p for p in model(passes, "hopper") if p not in voided]
    assert pages(api, "hopper", source="dashboard") == []
    assert pages(api, "hopper", templateId=template["id"]) == model(passes, "hopper")
    from webapp.services.context import Context

    with app.app_context():
        ctx = Context(org["id"], "test")
        assert queries.ids_matching(ctx, template_id=template["id"], search="lovelace",
                                    limit=100) == sorted(model(passes, "lovelace"))


# ---- the index in step with the passes (SQLite) ------------------------------------------------

@pytest.fixture
def sqlite_only(database: dict[str, Any]) -> None:
    if database["kind"] != "sqlite":
        pytest.skip("the FTS5 trigram index is SQLite's; PostgreSQL's GIN index is its own")


def index_agrees(app: Flask) -> None:
    """FTS5's own check of the index against `passes` (it raises on any difference)."""
    # A write statement to FTS5: through the app's writers' queue, beside the test's jobs.
    with app.app_context(), transaction() as session:
        session.execute(text(
            "INSERT INTO passes_search (passes_search, rank) VALUES ('integrity-check', 1)"))


def indexed(app: Flask, part: str) -> int:
    from webapp.extensions import db

    with app.app_context(), db.engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM passes_search WHERE passes_search "
                                 "MATCH :phrase"), {"phrase": f'"{part}"'}).scalar_one()


@pytest.mark.usefixtures("sqlite_only")
def test_the_index_follows_issue_void_and_update(app: Flask, api: Api,
                                                 template: dict[str, Any]) -> None:
    index_agrees(app)
    p = issue(api, template, "Émile Zola", "emile@zola.example")
    assert indexed(app, "emile zola") == 1
    assert api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"member": "y"}}
                     ).status_code == 200
    assert api.delete(f"/v1/passes/{p['id']}").status_code == 200
    assert indexed(app, "emile zola") == 1 and pages(api, "ZOLA") == [p["id"]]
    index_agrees(app)


@pytest.mark.usefixtures("sqlite_only")
def test_the_index_follows_a_changed_text_and_deleted_passes(
        app: Flask, api: Api, org: dict[str, Any], template: dict[str, Any]) -> None:
    from webapp.extensions import db
    from webapp.models import Organization, Pass

    first = issue(api, template, "Émile Zola")
    second = issue(api, template, "Victor Hugo")
    with app.app_context(), transaction() as session:  # as a data migration would
        session.execute(update(Pass).where(Pass.id == first["id"]).values(
            search_text=search.search_text("Gustave Flaubert", None, first["shortId"])))
    assert indexed(app, "zola") == 0 and pages(api, "flaubert") == [first["id"]]
    index_agrees(app)
    with app.app_context(), transaction() as session:
        session.execute(delete(Pass).where(Pass.id == second["id"]))
    assert indexed(app, "hugo") == 0 and pages(api, "hugo") == []
    index_agrees(app)
    third = issue(api, template, "Victor Hugo")  # after a gap in the rowids
    with app.app_context():  # VACUUM keeps the rowids the index is keyed by
        raw = db.engine.raw_connection()
        try:
            raw.driver_connection.execute("VACUUM")
        finally:
            raw.close()
    index_agrees(app)
    assert pages(api, "hugo") == [third["id"]]
    with app.app_context(), transaction() as session:  # the organization's cascade
        session.execute(delete(Organization).where(Organization.id == org["id"]))
    assert indexed(app, "flaubert") == indexed(app, "hugo") == 0
    index_agrees(app)
    index_agrees(app)


@pytest.mark.usefixtures("sqlite_only")
def test_a_rolled_back_issue_leaves_nothing_in_the_index(
        app: Flask, api: Api, template: dict[str, Any]) -> None:
    from webapp.models import Pass

    p = issue(api, template, "Marcel Proust")
    with pytest.raises(RuntimeError), app.app_context(), transaction() as session:
        session.execute(delete(Pass).where(Pass.id == p["id"]))
        raise RuntimeError("rolled back")
    assert indexed(app, "proust") == 1 and pages(api, "proust") == [p["id"]]
    index_agrees(app)


@pytest.mark.usefixtures("sqlite_only")
def test_bulk_issued_passes_are_indexed(app: Flask, api: Api, template: dict[str, Any]
                                        ) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True)
    items = [{"fieldValues": {"member": "x"}, "holderName": f"Bulk Holder {n:03}"}
             for n in range(120)]
    response = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                          "items": items})
    assert response.status_code == 202, response.get_data(as_text=True)
    assert indexed(app, "bulk holder") == 120
    assert len(pages(api, "bulk holder 0", limit=100)) == 100
    index_agrees(app)
