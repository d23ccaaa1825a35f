"""`Prepared(statement)`: a Core statement that hot paths run on the driver's cursor.

Issuing a pass runs some ten statements, and SQLAlchemy's execution machinery around
each (cache key, parameter processing, result set-up, events) costs several times what
SQLite itself does for an INSERT (instruction counts: ~150 k per statement). A `Prepared`
statement is compiled once per dialect; running it converts the parameters with the
column types' own bind processors, executes the SQL on the connection's driver cursor in
the connection's transaction, and converts result rows with the types' result
processors, so the values in and out are the ones `connection.execute` would give.
Driver errors come out as SQLAlchemy's exceptions (`IntegrityError`, ...), a lost
connection is invalidated as SQLAlchemy would.

`run_all` runs several in one round trip on PostgreSQL (psycopg's pipeline mode).

What it does not do: statement events (`before_cursor_execute`), SQL echo logging,
expanding (`IN`) parameters. For the few statements a hot path runs again and again,
built once at import time; everything else goes through `connection.execute`.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import exc
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql import ClauseElement


class _Plan(NamedTuple):
    sql: str
    names: tuple[str, ...]  # the parameters, in the order the SQL takes them
    positional: bool
    fixed: dict[str, Any]  # values bound in the statement itself (literals)
    binds: tuple[Callable[[Any], Any] | None, ...]
    results: tuple[Callable[[Any], Any] | None, ...] | None  # None: no rows
    row: type | None  # a named tuple of the result's columns


class Prepared:
    """A Core statement compiled once per dialect and run on the driver's cursor.

    `column_keys`: for an INSERT of a table, the columns given (all of them, in order,
    when the statement has no values of its own).
    """

    def __init__(self, statement: ClauseElement,
                 column_keys: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.column_keys = list(column_keys) if column_keys is not None else None
        self._plans: dict[str, _Plan] = {}

    def run(self, connection: Connection, params: Mapping[str, Any]) -> list[Any]:
        """Execute in `connection`'s transaction; the result's rows (named tuples), if any.

        :raises sqlalchemy.exc.DBAPIError: as `connection.execute` (IntegrityError, ...).
        """
        dialect = connection.dialect
        plan = self._plan(dialect)
        arguments = _arguments(connection, plan, params)
        cursor = None
        try:
            cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
            cursor.execute(plan.sql, arguments)
            raws = cursor.fetchall() if plan.results is not None else None
            cursor.close()  # (after an error, dropping it closes it)
        except dialect.loaded_dbapi.Error as error:
            raise _wrapped(connection, plan.sql, arguments, error, cursor) from error
        return _rows(plan, raws)

    def first(self, connection: Connection, params: Mapping[str, Any]) -> Any:
        """The first row, or None."""
        rows = self.run(connection, params)
        return rows[0] if rows else None

    def _plan(self, dialect: Dialect) -> _Plan:
        """This statement for `dialect`, compiled (once)."""
        plan = self._plans.get(dialect.name)
        return plan if plan is not None else self._compile(dialect)

    def _compile(self, dialect: Dialect) -> _Plan:
        compiled = self.statement.compile(dialect=dialect, column_keys=self.column_keys)
        if compiled.escaped_bind_names or getattr(compiled, "post_compile_params", None):
            raise TypeError("Prepared takes plain named parameters only")
        names = tuple(compiled.positiontup) if compiled.positional else \
            tuple(compiled.binds)  # type: ignore[arg-type]
        binds = tuple(compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
                      for name in names)
        fixed = {name: bind.value for name, bind in compiled.binds.items()
                 if not bind.required and bind.callable is None}
        columns = list(getattr(self.statement, "exported_columns", ()))  # selected, RETURNING
        results = row = None
        if columns:
            results = tuple(column.type.dialect_impl(dialect).result_processor(dialect, None)
                            for column in columns)
            row = namedtuple("Row", [_label(column, index)  # type: ignore[misc]
                                     for index, column in enumerate(columns)], rename=True)
        plan = _Plan(compiled.string, names, compiled.positional, fixed, binds, results, row)
        self._plans[dialect.name] = plan
        return plan


def run_all(connection: Connection, batch: Sequence[tuple[Prepared, Mapping[str, Any]]]
            ) -> list[list[Any]]:
    """Run prepared statements one after the other, each one's rows in a list; on
    PostgreSQL in one round trip (psycopg's pipeline mode). The first that fails raises
    its error as `run` does (the transaction is then only good for a rollback).

    :raises sqlalchemy.exc.DBAPIError: as `connection.execute` (IntegrityError, ...).
    """
    if connection.dialect.name != "postgresql" or len(batch) < 2:
        return [statement.run(connection, params) for statement, params in batch]
    dialect = connection.dialect
    plans = [statement._plan(dialect) for statement, _params in batch]
    calls = [(plan, _arguments(connection, plan, params))
             for plan, (_statement, params) in zip(plans, batch, strict=True)]
    driver: Any = connection.connection.driver_connection
    cursors: list[Any] = []
    try:
        with driver.pipeline():
            for plan, arguments in calls:
                cursors.append(driver.cursor())
                cursors[-1].execute(plan.sql, arguments)
        raws = [cursor.fetchall() if plan.results is not None else None
                for (plan, _values), cursor in zip(calls, cursors, strict=True)]
    except dialect.loaded_dbapi.Error as error:  # (which statement: the server's message)
        raise _wrapped(connection, "; ".join(plan.sql for plan, _values in calls),
                       [values for _plan, values in calls], error, None) from error
    finally:
        for cursor in cursors:
            cursor.close()
    return [_rows(plan, raw) for (plan, _values), raw in zip(calls, raws, strict=True)]


def _arguments(connection: Connection, plan: _Plan, params: Mapping[str, Any]) -> Any:
    """The driver's parameters: every value converted by its type, in the SQL's order."""
    if not connection.in_transaction():  # never autocommit half a change
        raise RuntimeError("Prepared statements run in a transaction")
    values = [params[name] if name in params else plan.fixed[name] for name in plan.names]
    values = [value if bind is None else bind(value)
              for bind, value in zip(plan.binds, values, strict=True)]
    return tuple(values) if plan.positional else dict(zip(plan.names, values, strict=True))


def _rows(plan: _Plan, raws: list[Any] | None) -> list[Any]:
    """The driver's rows as named tuples of values converted by their types."""
    if raws is None:
        return []
    make, results = plan.row._make, plan.results  # type: ignore[union-attr]
    return [make([value if result is None else result(value)
                  for result, value in zip(results, raw, strict=True)]) for raw in raws]


def _label(column: Any, index: int) -> str:
    name = getattr(column, "key", None)
    return name if isinstance(name, str) else f"c{index}"


def _wrapped(connection: Connection, sql: str, arguments: Any, error: Exception,
             cursor: Any) -> BaseException:
    """The driver's error as SQLAlchemy's; a connection lost is invalidated (the pool
    replaces it), as `connection.execute` does."""
    dialect = connection.dialect
    lost = dialect.is_disconnect(error, connection.connection.dbapi_connection, cursor)
    if lost:
        connection.invalidate(error)
    return exc.DBAPIError.instance(sql, arguments, error, dialect.loaded_dbapi.Error,
                                   connection_invalidated=lost, dialect=dialect)
