"""Deferrable blocks of a request unit on SQLite (webapp/services/_tx.py, _rows.py)."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from webapp import clock, ids
from webapp.extensions import db
from webapp.models import Organization
from webapp.services import _rows, _tx
from webapp.services._sql import Prepared


def _lock_is_free(path: Path) -> bool:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def _org(name: str) -> dict[str, Any]:
    return {"id": ids.new_id("org"), "name": name, "created_at": clock.now()}


def _names(*names: str) -> list[str]:
    with db.engine.connect() as other:  # what another connection sees
        return sorted(other.execute(select(Organization.name).where(
            Organization.name.in_(names))).scalars())


def test_rows_wait_for_the_commit_and_the_lock_is_free_meanwhile(app, lock_path: Path
                                                                  ) -> None:
    openings: list[int] = []
    with app.app_context():
        _tx.start_unit(lambda session: openings.append(1))
        with _tx.transaction(deferrable=True) as session:
            _rows.write(session, Organization, _org("Deferred"))
            assert _lock_is_free(lock_path)
        assert _tx.unit_open()  # writes are still to come: the outbox waits
        assert _names("Deferred") == [] and openings == [] and _lock_is_free(lock_path)
        assert _tx.finish_unit(lambda session: None)
        assert _names("Deferred") == ["Deferred"] and openings == [1]
        assert _lock_is_free(lock_path)


def test_a_write_in_place_opens_the_unit_with_what_was_deferred(app, lock_path: Path
                                                                 ) -> None:
    with app.app_context():
        _tx.start_unit(lambda session: None)
        with _tx.transaction(deferrable=True) as session:
            _rows.write(session, Organization, _org("Before"))
            with _tx.transaction() as inner:  # opens the unit: the kept row goes first
                assert not _lock_is_free(lock_path)
                assert inner.execute(text(
                    "SELECT count(*) FROM organizations WHERE name = 'Before'")).scalar() == 1
            _rows.write(session, Organization, _org("After"))  # written in place now
            assert session.execute(text(
                "SELECT count(*) FROM organizations WHERE name = 'After'")).scalar() == 1
        assert _names("Before", "After") == []
        assert _tx.finish_unit(lambda session: None)
        assert _names("Before", "After") == ["After", "Before"]


def test_a_changed_guard_makes_the_unit_stale_and_it_runs_again_in_place(app, lock_path: Path
                                                                         ) -> None:
    with app.app_context():
        org = Organization(**_org("Guarded"))
        db.session.add(org)
        db.session.commit()
        query = Prepared(select(Organization.name).where(Organization.id == org.id))
        _tx.start_unit(lambda session: None)
        with _tx.transaction(deferrable=True) as session:
            _tx.guard(session, query, {}, query.run(session.connection(), {}))
            _rows.write(session, Organization, _org("Rests on Guarded"))
        with db.engine.begin() as other:  # another writer changes what the row rests on
            other.execute(text("UPDATE organizations SET name = 'Renamed' WHERE id = :id"),
                          {"id": org.id})
        with pytest.raises(_tx.Stale):
            _tx.finish_unit(lambda session: None)
        assert _names("Rests on Guarded") == [] and not _tx.unit_open()
        with _tx.transaction(deferrable=True) as session:  # the rerun: in place
            assert not _lock_is_free(lock_path)
            _rows.write(session, Organization, _org("Second run"))
        assert _tx.finish_unit(lambda session: None)
        assert _names("Rests on Guarded", "Second run") == ["Second run"]


def test_a_kept_row_that_no_longer_fits_makes_the_unit_stale(app, lock_path: Path) -> None:
    from webapp.models import ApiKey

    with app.app_context():
        _tx.start_unit(lambda session: None)
        with _tx.transaction(deferrable=True) as session:  # its organization does not exist
            _rows.write(session, ApiKey, {
                "id": ids.new_id("key"), "organization_id": "org_gone",
                "environment": "test", "name": "Kept", "prefix": "svc_test_x",
                "secret_hash": "0" * 64, "created_at": clock.now()})
        with pytest.raises(_tx.Stale) as caught:
            _tx.finish_unit(lambda session: None)
        assert "FOREIGN KEY" in str(caught.value.__cause__)
        _tx.abandon_unit()


def test_an_error_in_a_deferrable_block_drops_what_it_kept(app, lock_path: Path) -> None:
    with app.app_context():
        _tx.start_unit(lambda session: None)
        with pytest.raises(RuntimeError), _tx.transaction(deferrable=True) as session:
            _rows.write(session, Organization, _org("Dropped"))
            raise RuntimeError("boom")
        assert not _tx.unit_open()
        assert not _tx.finish_unit(lambda session: None)
        assert _names("Dropped") == []


def test_deferred_objects_cannot_be_tracked_and_unknown_values_are_refused(app, lock_path: Path
                                                                          ) -> None:
    with app.app_context():
        _tx.start_unit(lambda session: None)
        with _tx.transaction(deferrable=True) as session:
            with pytest.raises(TypeError, match="tracked"):
                _rows.insert(session, Organization(**_org("Tracked")))
            with pytest.raises(TypeError, match=r"Organization has no \['colour'\]"):
                _rows.write(session, Organization, {**_org("Typo"), "colour": "red"})
            _rows.insert(session, Organization(**_org("Untracked")), track=False)
        assert _tx.finish_unit(lambda session: None)
        assert _names("Tracked", "Typo", "Untracked") == ["Untracked"]


def test_outside_a_unit_a_deferrable_block_writes_in_place(app, lock_path: Path) -> None:
    with app.app_context():
        with _tx.transaction(deferrable=True) as session:
            assert not _lock_is_free(lock_path)
            _rows.write(session, Organization, _org("No unit"))
        assert _names("No unit") == ["No unit"]


def test_a_busy_database_while_the_unit_opens_is_sqlalchemys_error_and_undoes_it(
        app, lock_path: Path) -> None:
    import sqlite3

    from sqlalchemy.exc import OperationalError

    with app.app_context():
        _tx.start_unit(lambda session: None)
        with _tx.transaction(deferrable=True) as session:
            _rows.write(session, Organization, _org("Kept"))
            read = session.execute(text("SELECT count(*) FROM organizations")).scalar()
            session.execute(text("PRAGMA busy_timeout=0"))
        other = sqlite3.connect(_tx._database_file(), isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # a writer that does not queue on the lock
            with pytest.raises(OperationalError, match="locked"):
                _tx.finish_unit(lambda session: None)
            assert not _tx.unit_open() and _lock_is_free(lock_path)
            other.execute("INSERT INTO organizations (id, name, created_at) "
                          "VALUES ('org_meanwhile', 'Meanwhile', '2026-11-23 00:00:00')")
            other.execute("COMMIT")
        finally:
            other.close()
        assert _names("Kept") == []
        _tx.start_unit(lambda session: None)  # the next unit: as usual
        with _tx.transaction(deferrable=True) as session:
            assert session.execute(text("SELECT count(*) FROM organizations")).scalar() \
                == read + 1
            _rows.write(session, Organization, _org("Kept"))
        assert _tx.finish_unit(lambda session: None)
        assert _names("Kept", "Meanwhile") == ["Kept", "Meanwhile"]
