"""`_rows.insert`: one INSERT, defaults filled, the object usable and tracked afterwards."""

from __future__ import annotations

from sqlalchemy import select

from webapp import clock, ids
from webapp.extensions import db
from webapp.models import Organization
from webapp.services import _rows
from webapp.services._tx import transaction


def test_one_insert_defaults_filled_nothing_reloaded_and_changes_flushed(app) -> None:
    statements: list[str] = []

    def seen(sql: str) -> None:  # every statement the driver runs (SQLite's trace)
        if sql.split()[0] in ("SELECT", "INSERT", "UPDATE", "DELETE"):
            statements.append(sql.split()[0])

    with app.app_context():
        org = Organization(id=ids.new_id("org"), name="Rows")  # created_at by default
        with transaction() as session:
            driver = session.connection().connection.driver_connection
            driver.set_trace_callback(seen)
            try:
                _rows.insert(session, org)
                assert statements == ["INSERT"]
                assert org.created_at is not None  # set before the INSERT, not reloaded
                assert org in session and not session.new  # persistent, not pending
                org.name = "Rows renamed"  # a later change is an UPDATE
                session.flush()
            finally:
                driver.set_trace_callback(None)
        assert statements == ["INSERT", "UPDATE"]
        stored = db.session.execute(select(Organization.name, Organization.created_at)
                                    .where(Organization.id == org.id)).one()
    assert stored.name == "Rows renamed"
    assert abs((stored.created_at - clock.now()).total_seconds()) < 60


def test_new_objects_hold_their_values_and_insert_untracked(app) -> None:
    with app.app_context():
        org = _rows.new(Organization, id=ids.new_id("org"), name="Built")
        assert org.name == "Built" and org.created_at is None  # nothing else set yet
        with transaction() as session:
            _rows.insert(session, org, track=False)
            assert org not in session and org.created_at is not None  # default filled
        stored = db.session.execute(select(Organization.name).where(
            Organization.id == org.id)).scalar_one()
    assert stored == "Built"
