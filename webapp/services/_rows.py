"""`insert(session, obj)`: write a new object's row with one Core INSERT on the session's
connection, without the ORM unit of work, and keep the object in the session as persistent
(`track=False`: leave it out of the session). `write(session, Model, values)`: the same
for a row nobody reads back in the request, with no object at all. In a deferrable block
(`_tx.transaction(deferrable=True)`) both keep the INSERT for the unit's opening.

For hot paths that create a few rows per request (issuing a pass writes the pass, its
Google object and its event): the unit of work's flush costs several times the INSERT
itself (which runs as a `_sql.Prepared` statement). Every column gets a value first (its
Python default, else NULL), so the object has nothing expired and reading it later costs
no query; it is then attached as if loaded, so later changes to it are flushed as UPDATEs
as usual.
"""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import inspect
from sqlalchemy.orm import Session, make_transient_to_detached

from webapp.services import _tx
from webapp.services._sql import Prepared

T = TypeVar("T")
_plans: dict[type, tuple[Prepared, tuple[tuple[str, str, Any], ...]]] = {}


def new(cls: type[T], **values: Any) -> T:
    """An object of `cls` holding `values`, made without the ORM's change tracking (a
    fraction of what `cls(**values)` costs): for `insert(..., track=False)` and for
    reading, never for `session.add` (a flush would not know the values are set)."""
    obj = cls.__mapper__.class_manager.new_instance()  # type: ignore[attr-defined]
    obj.__dict__.update(values)
    return obj  # type: ignore[no-any-return]


def insert(session: Session, obj: Any, *, track: bool = True) -> None:
    """INSERT `obj`'s row in the session's current transaction (IntegrityError as usual).

    `track=False` leaves the object out of the session (attaching it costs more than the
    INSERT): for one the request only reads afterwards, never changes.
    """
    statement, columns = _plan(type(obj))
    state = obj.__dict__
    values: dict[str, Any] = {}
    for attribute, column, default in columns:
        if attribute not in state:
            setattr(obj, attribute, default() if callable(default) else default)
        values[column] = state[attribute]
    if _tx.deferring(session):  # written at the unit's opening
        if track:
            raise TypeError("a deferred row is not in the database yet: it cannot be tracked")
        _tx.defer(session, statement, values)
        return
    statement.run(session.connection(), values)
    if track:
        make_transient_to_detached(obj)
        session.add(obj)


def write(session: Session, model: type, values: dict[str, Any]) -> None:
    """INSERT one row of `model` from attribute `values` (the others get their defaults).

    :raises TypeError: a value for an attribute the model does not have.
    """
    statement, columns = _plan(model)
    row: dict[str, Any] = {}
    used = 0
    for attribute, column, default in columns:
        if attribute in values:
            row[column] = values[attribute]
            used += 1
        else:
            row[column] = default() if callable(default) else default
    if used != len(values):
        known = {attribute for attribute, _column, _default in columns}
        raise TypeError(f"{model.__name__} has no {sorted(set(values) - known)}")
    if _tx.deferring(session):
        _tx.defer(session, statement, row)
    else:
        statement.run(session.connection(), row)


def _plan(cls: type) -> tuple[Prepared, tuple[tuple[str, str, Any], ...]]:
    plan = _plans.get(cls)
    if plan is None:
        columns = []
        for prop in inspect(cls).column_attrs:
            column = prop.columns[0]
            if column.server_default is not None:  # pragma: no cover (none in our models)
                raise TypeError(f"{cls.__name__}.{prop.key} has a server default")
            default = column.default
            if default is None:
                value: Any = None
            elif default.is_callable:
                value = _caller(default.arg)  # type: ignore[union-attr]
            else:
                value = default.arg  # type: ignore[union-attr]
            columns.append((prop.key, column.key, value))
        statement = Prepared(cls.__table__.insert(),  # type: ignore[attr-defined]
                             [column for _attribute, column, _default in columns])
        plan = _plans[cls] = (statement, tuple(columns))
    return plan


def _caller(wrapped: Any) -> Any:
    """A callable column default as a function of nothing (SQLAlchemy's takes a context)."""
    return lambda: wrapped(None)
