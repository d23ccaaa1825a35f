"""Pass search ignores case and accents: "Muller" finds "Müller" (issue 23, item 6).

Runs on SQLite and, in the PostgreSQL lane, through the trigram index's LIKE.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.factories import template_body
from tests.conftest import Api
from tests.dashboard.conftest import sign_in
from tests.support.migrating import at_head
from webapp.db.transaction import transaction
from webapp.domain import search

MIGRATION = Path(__file__).parents[2] / "migrations" / "versions" / "0010_search_folded.py"


@pytest.fixture
def template(api: Api) -> dict:
    response = api.post("/v1/templates", template_body())
    assert response.status_code == 201
    return response.get_json()


def issue(api: Api, template: dict, **body: Any) -> str:
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "x"}, **body})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()["id"]


def found(api: Api, term: str) -> set[str]:
    response = api.get("/v1/passes", query_string={"search": term})
    assert response.status_code == 200, response.get_data(as_text=True)
    return {p["id"] for p in response.get_json()["data"]}


@pytest.mark.parametrize(("text", "folded"), [
    ("Jürgen MÜLLER", "jurgen muller"), ("Straße", "strasse"), ("Łódź", "lodz"),
    ("Søren Kjær", "soren kjaer"), ("Œuvre Þór Đorđe", "oeuvre thor dorde"),
    ("İstanbul", "istanbul"), ("Nguyễn", "nguyen"), ("Ελένη", "ελενη"), ("Ёжик", "ежик"),
    ("\ufb01nn\u00a0Zoë", "finn zoe"),  # compatibility forms: a ligature, a no-break space
    # Other scripts keep their marks: kana voicing, Hangul syllables, a Devanagari virama.
    ("がっこう", "がっこう"), ("김민준", "김민준"), ("क्षत्रिय", "क्षत्रिय"),
])
def test_fold(text: str, folded: str) -> None:
    assert search.fold(text) == folded


def test_case_and_accents_do_not_matter(api: Api, template: dict) -> None:
    muller = issue(api, template, holderName="Jürgen Müller")
    plain = issue(api, template, holderName="Hans Muller")
    zoe = issue(api, template, holderName="Zoë Saldaña")
    strasse = issue(api, template, holderName="Anna Straße")
    lodz = issue(api, template, holderName="Łukasz z Łódź")
    soren = issue(api, template, holderName="Søren Kjær")
    obrien = issue(api, template, holderName="Siobhán O\u2019Brien")
    for term in ("Muller", "MÜLLER", "müller", "muller"):
        assert found(api, term) == {muller, plain}, term
    assert found(api, "jurgen muller") == {muller}
    assert found(api, "JÜRGEN MÜLLER") == {muller}
    assert found(api, "Hans Müller") == {plain}  # an accent in the term finds the plain name
    assert found(api, "Zoe") == found(api, "ZOË") == found(api, "saldana") == {zoe}
    assert found(api, "strasse") == found(api, "STRASSE") == found(api, "Straße") == {strasse}
    assert found(api, "lodz") == found(api, "ŁÓDŹ") == found(api, "lukasz") == {lodz}
    assert found(api, "soren kjaer") == found(api, "Kjær") == {soren}
    assert found(api, "o'brien") == found(api, "O\u2019Brien") == found(api, "siobhan") == {obrien}
    assert found(api, "mueller") == set()  # a transliteration, not a folding


def test_emails_fold_and_still_match_whole(api: Api, template: dict) -> None:
    jose = issue(api, template, holderEmail="José.Müller@Example.com")
    cherokee = issue(api, template, holderEmail="ꭰꭱꭲ@example.com")
    assert found(api, "jose.muller@example.com") == {jose}
    assert found(api, "JOSÉ.MÜLLER@EXAMPLE.COM") == {jose}
    assert found(api, "jose.muller@example.org") == set()
    assert found(api, "jose.muller@") == {jose}
    # Casefold turns Cherokee into capitals: the whole-term check must not lower-case.
    capitals = "\u13a0\u13a1\u13a2@EXAMPLE.COM"
    assert found(api, "ꭰꭱꭲ@example.com") == found(api, capitals) == {cherokee}


def test_the_dashboard_search_folds_too(client: FlaskClient, org: dict, api: Api,
                                        template: dict) -> None:
    issue(api, template, holderName="Jürgen Müller")
    issue(api, template, holderName="Alan Turing")
    dash = sign_in(client, org["email"], org["password"])
    response = dash.get("/dashboard/test/passes?q=muller", headers={"HX-Request": "true"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Jürgen Müller" in page and "Alan Turing" not in page


def test_the_stored_text_is_folded(app: Flask, api: Api, template: dict) -> None:
    from webapp.extensions import db
    from webapp.models import Pass

    pass_id = issue(api, template, holderName="Zoë Straße", holderEmail="Zoë@Example.com")
    with app.app_context():
        item = db.session.get(Pass, pass_id)
        assert item.search_text == f"zoe strasse\x1fzoe@example.com\x1f{item.short_id.lower()}"


def _chunk() -> int:
    spec = importlib.util.spec_from_file_location("migration_0010", MIGRATION)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return int(module.CHUNK)


def test_the_migration_folds_existing_passes_and_back(tmp_path: Path,
                                                      empty_database: str) -> None:
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import insert, select

    with at_head(tmp_path, empty_database) as (ctx, template):
        from webapp.extensions import db
        from webapp.models import Pass
        from webapp.services.passes import issuing, queries

        first_id = issuing.issue(ctx, issuing.IssueRequest(
            template.id, {"member": "x"}, holder_name="Jürgen Müller",
            holder_email="Jürgen@Example.com")).id
        # More passes than one chunk, so the migration goes past its first chunk.
        table = Pass.__table__
        row = dict(db.session.execute(select(table)).mappings().one())
        names = [f"Zoë {n}" if n % 2 else f"Ada {n}" for n in range(_chunk() + 1)]
        with transaction() as session:
            session.execute(insert(table), [
                {**row, "id": f"pass_{n:06d}", "short_id": f"S{n:06d}", "holder_name": name,
                 "holder_email": None,
                 "search_text": search.search_text(name, None, f"S{n:06d}")}
                for n, name in enumerate(names)])
        db.session.remove()

        def stored() -> list[tuple[str, str]]:
            rows = db.session.execute(select(table.c.holder_name, table.c.holder_email,
                                             table.c.short_id, table.c.search_text)).all()
            db.session.remove()
            return [(r.search_text, "\x1f".join(p or "" for p in r[:3])) for r in rows]

        def found(term: str) -> list[str]:
            page = queries.list_(ctx, search=term, limit=100)
            db.session.remove()
            return [p.id for p in page.data]

        def found_by_sql(term: str) -> list[str]:
            # At 0009 the models' newer columns do not exist yet: ask the table directly.
            rows = db.session.execute(select(table.c.id).where(
                table.c.search_text.like(f"%{term}%"))).scalars().all()
            db.session.remove()
            return list(rows)

        downgrade(revision="0009")
        assert all(text == joined.lower() for text, joined in stored())
        assert found_by_sql("muller") == found_by_sql("zoe") == []

        upgrade()
        assert all(text == search.fold(joined) for text, joined in stored())
        assert found("muller") == [first_id]
        assert len(found("zoe")) == 100
