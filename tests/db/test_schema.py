"""The migrations build exactly the tables, columns and indexes the models declare."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from tests.support.migrating import at_head
from tests.support.plans import explained

# Made by the migrations for one database only, where the models cannot say it.
DIALECT_ONLY = {
    "ix_passes_search_trgm",  # PostgreSQL: pg_trgm's GIN index for pass search
    # SQLite: the FTS5 trigram index for pass search (migration 0018) and its shadow tables
    "passes_search", "passes_search_data", "passes_search_idx", "passes_search_docsize",
    "passes_search_config",
}


def _include(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    return not (reflected and compare_to is None and name in DIALECT_ONLY)


def test_the_migrated_database_matches_the_models(app) -> None:
    from webapp.extensions import db

    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "include_object": _include})
        differences = compare_metadata(context, db.metadata)
    assert differences == []


def test_sqlite_keeps_the_search_index_in_step_at_the_head(app, database) -> None:
    """A later migration that recreated `passes` would drop these triggers (migration 0018)."""
    if database["kind"] != "sqlite":
        return  # PostgreSQL's search index is a plain GIN index on the column
    from webapp.extensions import db

    with app.app_context(), db.engine.connect() as connection:
        triggers = set(connection.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'passes'"
        ).scalars())
        connection.exec_driver_sql(
            "INSERT INTO passes_search (passes_search, rank) VALUES ('integrity-check', 1)")
    assert triggers == {"passes_search_insert", "passes_search_delete", "passes_search_update"}


def test_postgresql_samples_search_text_finely_enough_to_estimate_a_search(app, database
                                                                          ) -> None:
    """Migration 0023: at the default target a term held by thousands of a million passes
    was estimated at 100 rows, and the planner read and sorted every match."""
    if database["kind"] != "postgres":
        return  # SQLite's planner has no such statistics: its FTS5 index decides
    from webapp.extensions import db

    with app.app_context(), db.engine.connect() as connection:
        target = connection.exec_driver_sql(
            "SELECT attstattarget FROM pg_attribute WHERE attrelid = 'passes'::regclass "
            "AND attname = 'search_text'").scalar_one()
    assert target == 1000


def test_sqlite_reads_a_pass_s_events_through_their_index(app, database) -> None:
    """A pass's export and erasure: without its own index first, SQLite read every event of
    the scope in order (0.5 s at a million events). Both statements (the events naming the
    pass, and those naming none) search the index."""
    if database["kind"] != "sqlite":
        pytest.skip("SQLite's plans: PostgreSQL's planner chooses from its statistics")
    from webapp.extensions import db
    from webapp.services.context import Context
    from webapp.services.webhooks import events

    def about_pass() -> None:
        with app.app_context():
            assert events.about_pass(db.session(), Context("org_1", "test"), "pass_1") == []

    assert [plan for statement, plan in explained(app, about_pass)
            if "FROM events" in statement] == [
        ["SEARCH events USING INDEX ix_events_scope_pass_id "
         "(organization_id=? AND environment=? AND pass_id=?)"]] * 2


def test_sqlite_reads_the_answers_an_erasure_opens_through_their_index(app, database) -> None:
    """An erasure's stored answers (those about the pass, and those about none) are searched
    on `(pass_id, scope)`, not read for the whole scope."""
    if database["kind"] != "sqlite":
        pytest.skip("SQLite's plans: PostgreSQL's planner chooses from its statistics")
    from webapp.db import idempotency
    from webapp.db.transaction import transaction
    from webapp.services.context import Context

    def rewrite() -> None:
        with app.app_context(), transaction() as session:
            assert idempotency.rewrite_answers(session, Context("org_1", "test"), "pass_1",
                                               str.upper) == 0

    assert [plan for statement, plan in explained(app, rewrite)
            if "FROM idempotency_records" in statement] == [
        ["SEARCH idempotency_records USING INDEX ix_idempotency_records_pass_id "
         "(pass_id=? AND organization_id=? AND environment=?)"]] * 2


def test_postgresql_looks_a_key_up_on_its_unique_index_before_any_statistics(
        database, empty_database: str, tmp_path: Path) -> None:
    """Migration 0027: with an index of answers by `(scope, pass_id)`, the planner of a table
    without statistics (a new installation's first minute) took it for a key's lookup and read
    every answer of the scope at each request. Led by the pass, it cannot serve that lookup.
    A new database, and rows left uncommitted: an ANALYZE by autovacuum meanwhile sees none."""
    if database["kind"] != "postgres":
        pytest.skip("PostgreSQL's planner: SQLite's picks the unique index by its shape")
    from webapp.db import idempotency
    from webapp.extensions import db

    with at_head(tmp_path, empty_database), db.engine.connect() as connection:
        connection.exec_driver_sql(
            "INSERT INTO idempotency_records (id, organization_id, environment, key, "
            "fingerprint, request_id, state, status_code, body, pass_id, created_at, locked_at) "
            "SELECT 'idem_' || n, 'org_1', 'test', 'key-' || n, 'f', 'req_1', 'completed', "
            "201, '', NULL, now(), now() FROM generate_series(1, 2000) AS n")
        plan = connection.exec_driver_sql(
            f"EXPLAIN {idempotency._RECORD.compile(connection)}",
            {"organization_id": "org_1", "environment": "test", "key": "key-7"}).scalars().all()
        connection.rollback()
    assert "uq_idempotency_records_organization_id_environment_key" in plan[0], plan


def test_postgresql_a_new_database_reads_passes_by_key_for_foreign_key_checks(
        database, empty_database: str, tmp_path: Path) -> None:
    """Migration 0023 analyzed `passes` while empty: the planner then took it for empty
    rather than new, and the foreign-key checks of every row pointing at a pass (its Google
    row, tags, updates) read `passes` whole, with plans each connection kept until
    autovacuum's first ANALYZE a minute later (docs/benchmarks.md, seventh part)."""
    if database["kind"] != "postgres":
        pytest.skip("PostgreSQL's planner: SQLite has no statistics until ANALYZE")
    from webapp.extensions import db

    with at_head(tmp_path, empty_database):
        plan = db.session.execute(text(
            "EXPLAIN SELECT 1 FROM ONLY passes x WHERE id = 'pass_1' FOR KEY SHARE OF x"
        )).scalars().all()
    assert any("Index Scan using pk_passes" in line for line in plan), plan
