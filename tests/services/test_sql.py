"""`_sql.Prepared`: the same values in and out as `connection.execute`, errors as
SQLAlchemy's, on SQLite and PostgreSQL (this module is in the PostgreSQL lane too)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import Boolean, Column, Integer, MetaData, String, Table, bindparam, exc, select
from sqlalchemy import text as sql
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from webapp.extensions import db
from webapp.models.base import JSONType, UTCDateTime
from webapp.services._sql import Prepared, run_all

_meta = MetaData()
_things = Table(
    "prepared_things", _meta,
    Column("id", String(20), primary_key=True),
    Column("at", UTCDateTime, nullable=True),
    Column("doc", JSONType, nullable=True),
    Column("flag", Boolean, nullable=False),
    Column("count", Integer, nullable=True),
    Column("kind", String(10), nullable=False),
)
_COLUMNS = ["id", "at", "doc", "flag", "count", "kind"]
_INSERT = Prepared(_things.insert(), _COLUMNS)
_BY_KIND = Prepared(select(_things).where(_things.c.kind == bindparam("kind"),
                                           _things.c.flag == True)  # noqa: E712 (a literal)
                    .order_by(_things.c.id))
_AT = datetime(2026, 11, 23, 20, 15, 30, 123456, tzinfo=timezone(timedelta(hours=2)))


@pytest.fixture
def table(app) -> Iterator[None]:
    with app.app_context():
        _meta.create_all(db.engine)
        try:
            yield
        finally:
            db.session.remove()
            _meta.drop_all(db.engine)


def _row(id: str, **values: object) -> dict[str, object]:
    return {"id": id, "at": _AT, "doc": {"a": [1, "x"], "b": None}, "flag": True,
            "count": 7, "kind": "k", **values}


def test_values_go_in_and_come_out_as_connection_execute_has_them(table) -> None:
    with db.engine.begin() as connection:
        assert _INSERT.run(connection, _row("t1")) == []
        _INSERT.run(connection, _row("t2", at=None, doc=None, count=None))
        _INSERT.run(connection, _row("t3", flag=False))  # not selected: flag is false
        _INSERT.run(connection, _row("t4", kind="other"))
    with db.engine.begin() as connection:
        rows = _BY_KIND.run(connection, {"kind": "k"})
        expected = connection.execute(_BY_KIND.statement, {"kind": "k"}).all()
    assert [tuple(row) for row in rows] == [tuple(row) for row in expected]
    assert [row.id for row in rows] == ["t1", "t2"]
    first = rows[0]
    assert first.at == _AT and first.at.tzinfo == UTC  # aware UTC, as the type gives it
    assert first.doc == {"a": [1, "x"], "b": None}
    assert first.flag is True and first.count == 7
    assert rows[1].at is None and rows[1].doc is None and rows[1].count is None


def test_stored_as_connection_execute_stores_them(table) -> None:
    stored = sql("SELECT at, doc, flag, count, kind FROM prepared_things WHERE id = :id")
    with db.engine.begin() as connection:
        for values in (_row("x"), _row("x", at=None, doc=None, count=None, flag=False)):
            connection.execute(_things.insert(), {**values, "id": "by-core"})
            _INSERT.run(connection, {**values, "id": "prepared"})
            assert connection.execute(stored, {"id": "prepared"}).one() == \
                connection.execute(stored, {"id": "by-core"}).one()
            connection.execute(sql("DELETE FROM prepared_things"))


def test_first_is_the_first_row_or_none(table) -> None:
    with db.engine.begin() as connection:
        _INSERT.run(connection, _row("t1"))
        assert _BY_KIND.first(connection, {"kind": "k"}).id == "t1"
        assert _BY_KIND.first(connection, {"kind": "none"}) is None


def test_returning_rows_and_a_conflict_that_does_nothing(table) -> None:
    with db.engine.begin() as connection:
        dialect = connection.dialect.name
        insert = pg_insert if dialect == "postgresql" else sqlite_insert
        claim = Prepared(insert(_things).values(
            {name: bindparam(name, type_=_things.c[name].type) for name in _COLUMNS}
        ).on_conflict_do_nothing().returning(_things.c.id, _things.c.at))
        [row] = claim.run(connection, _row("t1"))
        assert (row.id, row.at) == ("t1", _AT)
        assert claim.run(connection, _row("t1", kind="again")) == []
        assert connection.execute(sql("SELECT kind FROM prepared_things")).scalars().all() \
            == ["k"]


def test_driver_errors_are_sqlalchemy_errors_and_roll_back_with_the_transaction(table
                                                                                ) -> None:
    with db.engine.connect() as connection:
        with connection.begin():
            _INSERT.run(connection, _row("t1"))
        transaction = connection.begin()
        _INSERT.run(connection, _row("t2"))
        with pytest.raises(exc.IntegrityError) as caught:
            _INSERT.run(connection, _row("t1"))
        assert "prepared_things" in str(caught.value.statement)
        transaction.rollback()
        ids = connection.execute(sql("SELECT id FROM prepared_things")).scalars().all()
    assert ids == ["t1"]


def test_a_missing_parameter_is_a_key_error_before_anything_runs(table) -> None:
    with db.engine.begin() as connection:
        values = _row("t1")
        del values["kind"]
        with pytest.raises(KeyError):
            _INSERT.run(connection, values)


def test_only_in_a_transaction(table) -> None:
    with db.engine.connect() as connection:
        with pytest.raises(RuntimeError, match="transaction"):
            _INSERT.run(connection, _row("t1"))
        connection.rollback()
        assert connection.execute(sql("SELECT count(*) FROM prepared_things")).scalar() == 0


def test_expanding_parameters_are_refused(table) -> None:
    prepared = Prepared(select(_things.c.id).where(_things.c.id.in_(bindparam("ids",
                                                                              expanding=True))))
    with db.engine.begin() as connection, pytest.raises(TypeError, match="plain"):
        prepared.run(connection, {"ids": ["t1"]})


def test_a_lost_connection_is_invalidated_as_sqlalchemy_does(table) -> None:
    with db.engine.connect() as connection:
        connection.begin()
        if connection.dialect.name == "postgresql":  # the server ends the session
            pid = connection.execute(sql("SELECT pg_backend_pid()")).scalar()
            with db.engine.connect() as other:
                other.execute(sql("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        else:  # SQLite: the driver's connection is closed under it
            connection.connection.driver_connection.close()
        with pytest.raises(exc.DBAPIError) as caught:
            _INSERT.run(connection, _row("t1"))
        assert caught.value.connection_invalidated
        assert connection.invalidated
    with db.engine.connect() as fresh:  # the pool hands out a new connection
        assert fresh.execute(sql("SELECT 1")).scalar() == 1


def test_run_all_gives_each_statements_rows_and_stops_at_the_first_error(table) -> None:
    with db.engine.begin() as connection:
        results = run_all(connection, [(_INSERT, _row("t1")), (_INSERT, _row("t2")),
                                       (_BY_KIND, {"kind": "k"})])
        assert results[:2] == [[], []] and [row.id for row in results[2]] == ["t1", "t2"]
    with db.engine.connect() as connection:
        transaction = connection.begin()
        with pytest.raises(exc.IntegrityError) as caught:
            run_all(connection, [(_INSERT, _row("t3")), (_INSERT, _row("t1")),
                                 (_INSERT, _row("t4"))])
        assert "prepared_things" in str(caught.value.statement)
        transaction.rollback()
        assert connection.execute(sql("SELECT id FROM prepared_things ORDER BY id")
                                  ).scalars().all() == ["t1", "t2"]
    with db.engine.begin() as connection:  # the connection is usable again
        assert run_all(connection, [(_INSERT, _row("t5"))]) == [[]]
        assert run_all(connection, []) == []
